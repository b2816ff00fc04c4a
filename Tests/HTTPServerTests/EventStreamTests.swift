import Foundation
import HTTPServer
import TestSupport
import Testing

@Suite struct EventStreamTests {
    private func configuration(heartbeat: Duration = .seconds(15), maxStreamBuffer: Int = 256 * 1024)
        -> ServerConfiguration
    {
        ServerConfiguration(
            port: 0, threadCount: 2, connectionLimit: 4000, heartbeatInterval: heartbeat,
            maxStreamBuffer: maxStreamBuffer)
    }

    @Test func eventsArriveInOrderWithIdsIncludingThoseWrittenBeforeTheResponse() throws {
        let hub = StreamHub()
        try withServer(configuration: configuration(), routes: hub.routes(early: ["zero", "one"])) { server throws in
            let client = try EventStreamClient(port: server.port)
            #expect(eventually { hub.count == 1 })
            let stream = hub.all[0]
            // Written from another thread while the connection is parked.
            let writer = Thread {
                for id in 2..<50 { stream.send(event: "tick", id: "\(id)", data: "line \(id)\nsecond \(id)") }
            }
            writer.start()
            let events = try client.read(events: 50)
            #expect(events[0] == "event: early\nid: 0\ndata: zero")
            #expect(events[1] == "event: early\nid: 1\ndata: one")
            for id in 2..<50 {
                #expect(events[id] == "event: tick\nid: \(id)\ndata: line \(id)\ndata: second \(id)")
            }
        }
    }

    @Test func responseIsANeverCachedChunkedEventStream() throws {
        let hub = StreamHub()
        try withServer(configuration: configuration(), routes: hub.routes()) { server throws in
            let connection = try TestConnection(port: server.port)
            try connection.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try connection.readHead()
            #expect(head[header: "Content-Type"] == "text/event-stream")
            #expect(head[header: "Cache-Control"] == "no-store")
            #expect(head[header: "Transfer-Encoding"] == "chunked")
        }
    }

    @Test func eachChunkIsFramedWithItsLengthInHex() throws {
        // Events sent one at a time, each read before the next is sent (so each is a chunk of its own), of
        // lengths whose sizes take one to four hex digits; then the end of the stream, the last chunk.
        let hub = StreamHub()
        try withServer(configuration: configuration(), routes: hub.routes()) { server throws in
            let connection = try TestConnection(port: server.port)
            try connection.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try connection.readHead()
            #expect(head[header: "Transfer-Encoding"] == "chunked")
            #expect(eventually { hub.count == 1 })
            for (id, length) in [1, 30, 400, 5000].enumerated() {
                let data = String(repeating: "x", count: length)
                hub.all[0].send(id: "\(id)", data: data)
                let chunk = try #require(try connection.readChunk())
                #expect(String(decoding: chunk, as: UTF8.self) == "id: \(id)\ndata: \(data)\n\n")
            }
            hub.all[0].close()
            #expect(try connection.readChunk() == nil)
        }
    }

    @Test func anHTTP10ClientReceivesEventsLargerThanTheResponseBlockWhole() throws {
        // HTTP/1.0 has no chunked encoding: the body is the events as they are, ended by closing the connection.
        let hub = StreamHub()
        try withServer(configuration: configuration(), routes: hub.routes()) { server throws in
            let connection = try TestConnection(port: server.port)
            try connection.send("GET /events HTTP/1.0\r\nHost: x\r\n\r\n")
            let head = try connection.readHead()
            #expect(head.status == 200)
            #expect(head[header: "Transfer-Encoding"] == nil)
            #expect(eventually { hub.count == 1 })
            let long = String(repeating: "0123456789", count: 300)
            hub.all[0].send(id: "1", data: long)
            hub.all[0].send(id: "2", data: "after")
            hub.all[0].close()
            let body = try connection.readUntilClosed()
            #expect(String(decoding: body, as: UTF8.self) == "id: 1\ndata: \(long)\n\nid: 2\ndata: after\n\n")
        }
    }

    @Test func eventsSentAsPartsArriveFramedAndInOrderWithEverythingElse() throws {
        // Written before the response (queued behind each other, framed into the buffer), then one at a time to a
        // parked connection (kept as parts until it reads), with a shared payload, the ids' extremes and an empty line of data.
        let payload = Array("[\"replace\",\"v3\",\"<b>8.1</b>\"]".utf8)
        let stream = EventStream()
        stream.send(event: "patch", id: 1, data: payload)
        stream.send(raw: Array("data: raw\n\n".utf8))
        stream.send(event: "title", id: -2, data: Array("Heat".utf8))
        let routes: (Router) -> Void = { router in router.get("/events") { _ in .eventStream(stream) } }
        let text = String(decoding: payload, as: UTF8.self)
        var expected = ["event: patch\nid: 1\ndata: \(text)", "data: raw", "event: title\nid: -2\ndata: Heat"]
        try withServer(configuration: configuration(), routes: routes) { server throws in
            let client = try EventStreamClient(port: server.port)
            #expect(try client.read(events: 3) == expected)
            for id in [Int.max, 0, Int.min] {
                stream.send(event: "patch", id: id, data: payload)
                expected.append("event: patch\nid: \(id)\ndata: \(text)")
                #expect(try client.read(events: expected.count) == expected)
            }
            stream.send(event: "patch", id: 11, data: payload)
            stream.send(data: "between")
            stream.send(event: "patch", id: 12, data: [])
            expected += ["event: patch\nid: 11\ndata: \(text)", "data: between", "event: patch\nid: 12\ndata: "]
            #expect(try client.read(events: expected.count) == expected)
        }
    }

    @Test func anEventSentAsPartsLargerThanOneWriteArrivesWhole() throws {
        // Over the 16 KiB a connection takes from its stream at a time: framed into the stream's buffer and read in
        // pieces, over HTTP/1.1's chunks and HTTP/1.0's plain body.
        let large = [UInt8](repeating: UInt8(ascii: "x"), count: 40_000)
        for version in ["1.1", "1.0"] {
            let hub = StreamHub()
            try withServer(configuration: configuration(), routes: hub.routes()) { server throws in
                let connection = try TestConnection(port: server.port)
                try connection.send("GET /events HTTP/\(version)\r\nHost: x\r\n\r\n")
                _ = try connection.readHead()
                #expect(eventually { hub.count == 1 })
                hub.all[0].send(event: "reset", id: 7, data: large)
                hub.all[0].close()
                var body: [UInt8] = []
                if version == "1.1" {
                    while let chunk = try connection.readChunk() { body += chunk }
                } else {
                    body = try connection.readUntilClosed()
                }
                #expect(body == Array("event: reset\nid: 7\ndata: ".utf8) + large + Array("\n\n".utf8))
            }
        }
    }

    @Test func partsHoldingLineBreaksAreSentAsLines() throws {
        let hub = StreamHub()
        try withServer(configuration: configuration(), routes: hub.routes()) { server throws in
            let client = try EventStreamClient(port: server.port)
            #expect(eventually { hub.count == 1 })
            hub.all[0].send(event: "pat\nch", id: 3, data: Array("one\r\ntwo\rthree".utf8))
            hub.all[0].send(event: "", id: 4, data: Array("x".utf8))
            #expect(
                try client.read(events: 2) == [
                    "event: patch\nid: 3\ndata: one\ndata: two\ndata: three", "event: \nid: 4\ndata: x",
                ])
        }
    }

    @Test func eventsKeptAsPartsCountTowardsTheBufferBound() {
        // An unattached stream holds up to 1 MiB; two parts events of 600 KB are over it.
        let stream = EventStream()
        let data = [UInt8](repeating: UInt8(ascii: "y"), count: 600_000)
        stream.send(event: "patch", id: 1, data: data)
        #expect(!stream.isClosed)
        stream.send(event: "patch", id: 2, data: data)
        #expect(stream.isClosed)
    }

    @Test func heartbeatsArriveOnTheConfiguredInterval() throws {
        let hub = StreamHub()
        try withServer(configuration: configuration(heartbeat: .milliseconds(50)), routes: hub.routes()) {
            server throws in
            let client = try EventStreamClient(port: server.port)
            let blocks = try client.read(events: 3)
            #expect(blocks.prefix(3).allSatisfy { $0 == ": hb" })
        }
    }

    @Test func closeEndsTheResponseAfterPendingEvents() throws {
        let hub = StreamHub()
        try withServer(configuration: configuration(), routes: hub.routes()) { server throws in
            let client = try EventStreamClient(port: server.port)
            #expect(eventually { hub.count == 1 })
            let stream = hub.all[0]
            stream.send(id: "1", data: "last words")
            stream.close()
            stream.send(data: "ignored after close")
            #expect(client.readUntilEnd())
            #expect(client.blocks == ["id: 1\ndata: last words"])
            #expect(stream.isClosed)
        }
    }

    @Test func disconnectFiresTheCloseCallbackOnceAndFreesTheStream() throws {
        let hub = StreamHub()
        let closed = ClosedFlag()
        try withServer(configuration: configuration(heartbeat: .milliseconds(50)), routes: hub.routes()) {
            server throws in
            var client: EventStreamClient? = try EventStreamClient(port: server.port)
            #expect(eventually { hub.count == 1 })
            weak let weakStream = hub.all[0]
            hub.all[0].onClose { closed.set() }
            hub.removeAll()
            client = nil  // The client hangs up; the next heartbeat fails to write.
            #expect(client == nil)
            #expect(eventually { closed.isSet })
            #expect(eventually { weakStream == nil })
            usleep(100_000)
            #expect(closed.timesSet == 1)
        }
    }

    @Test func aStreamSentToASecondClientIsA500() throws {
        let shared = EventStream()
        let routes: (Router) -> Void = { router in router.get("/events") { _ in .eventStream(shared) } }
        try withServer(configuration: configuration(), routes: routes) { server throws in
            let first = try EventStreamClient(port: server.port)
            let second = try TestConnection.request(port: server.port, "/events")
            #expect(second.status == 500)
            shared.send(data: "only to the first")
            #expect(try first.read(events: 1) == ["data: only to the first"])
        }
    }

    @Test func onCloseRunsImmediatelyOnAClosedStreamAndHandlersRunOnce() {
        let stream = EventStream()
        let closed = ClosedFlag()
        stream.onClose { closed.set() }
        stream.close()
        stream.close()
        #expect(closed.timesSet == 1)
        stream.onClose { closed.set() }
        #expect(closed.timesSet == 2)
    }

    @Test func aSlowReaderIsCutOffWithoutBlockingTheWriter() throws {
        let hub = StreamHub()
        try withServer(configuration: configuration(maxStreamBuffer: 64 * 1024), routes: hub.routes()) {
            server throws in
            let client = try EventStreamClient(port: server.port)  // and never reads again
            #expect(eventually { hub.count == 1 })
            let stream = hub.all[0]
            let closed = ClosedFlag()
            stream.onClose { closed.set() }
            let payload = String(repeating: "x", count: 1000)
            // A writer that blocked on the reader would never finish this loop; no clock is needed to see it (a
            // time bound failed under ThreadSanitizer's slowdown).
            for id in 0..<20_000 { stream.send(id: "\(id)", data: payload) }  // 20 MB
            #expect(stream.isClosed)
            #expect(closed.isSet)
            _ = client
        }
    }

    @Test func aThousandConcurrentStreamsEachReceiveABroadcast() throws {
        let hub = StreamHub()
        try withServer(configuration: configuration(), routes: hub.routes()) { server throws in
            let clients = try (0..<1000).map { _ in try EventStreamClient(port: server.port) }
            #expect(eventually(within: 10) { hub.count == 1000 })
            let event = EventStream.encode(event: "news", id: "1", data: "to everyone")
            for stream in hub.all { stream.send(raw: event) }
            var received = 0
            for client in clients where try client.read(events: 1) == ["event: news\nid: 1\ndata: to everyone"] {
                received += 1
            }
            #expect(received == 1000)
        }
    }
}
