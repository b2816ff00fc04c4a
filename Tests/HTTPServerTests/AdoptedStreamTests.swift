import Foundation
import TestSupport
import Testing

@testable import HTTPServer

/// Event streams leave libmicrohttpd once their request is answered and are sent on their sockets directly: they
/// hold no connection slot, have a limit of their own, notice a client leaving at once, and wait for room when a
/// client reads slower than they write.
@Suite struct AdoptedStreamTests {
    private let twoConnections = ServerConfiguration(port: 0, threadCount: 1, connectionLimit: 2)

    @Test func openStreamsHoldNoConnectionSlot() throws {
        let hub = StreamHub()
        try withServer(configuration: twoConnections, routes: hub.routes()) { server throws in
            let streams = try (0..<2).map { _ in try EventStreamClient(port: server.port) }
            #expect(eventually { hub.count == 2 })
            // Were the streams still libmicrohttpd's connections, they would fill both slots and this would wait.
            let connection = try TestConnection(port: server.port, timeout: 2)
            try connection.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try connection.readResponse().text == "ok")
            hub.all[1].send(data: "still open")
            #expect(try streams[1].read(events: 1) == ["data: still open"])
        }
    }

    @Test(arguments: [true, false]) func eventsWrittenTogetherOnABatchingStreamLeaveTogether(batching: Bool) throws {
        let hub = StreamHub()
        // A burst as wide as the test: which writes are one burst then does not depend on how fast the machine runs.
        var configuration = twoConnections
        configuration.eventStreamBurstGap = .seconds(3600)
        try withServer(configuration: configuration, routes: hub.routes(batching: batching)) { server throws in
            let client = try EventStreamClient(port: server.port)
            #expect(eventually { hub.count == 1 })
            hub.all[0].send(data: "adopted")
            #expect(try client.read(events: 1) == ["data: adopted"])
            // Without batching, each write below is then sent by this thread, which parks the stream again.
            #expect(eventually { hub.all[0].isParked })
            let (sendsBefore, writerSendsBefore) = (server.eventStreamSendCalls, server.eventStreamWriterSends)
            // As a fan-out's screens write to the stream they share: one after another from the writers' threads.
            // A stream that does not batch sends each event from its writer; a batching one sends the first of a
            // burst from its writer and has the stream thread send the rest, what came meanwhile together.
            for id in 0..<200 { hub.all[0].send(id: "\(id)", data: "event \(id)") }
            let events = try client.read(events: 201).dropFirst()
            #expect(events.count == 200)
            #expect(zip(0..., events).allSatisfy { $0.1 == "id: \($0.0)\ndata: event \($0.0)" })
            let sends = server.eventStreamSendCalls - sendsBefore
            let writerSends = server.eventStreamWriterSends - writerSendsBefore
            if batching {
                #expect(writerSends <= 1, "the writer sent \(writerSends) of a burst's 200 events itself")
                #expect(sends >= 1)
            } else {
                #expect(sends == 200)
                #expect(writerSends == 0)
            }
        }
    }

    @Test func streamsOverTheLimitAre503AndTheOpenOnesCarryOn() throws {
        let hub = StreamHub()
        try withServer(configuration: twoConnections, routes: hub.routes()) { server throws in
            let streams = try (0..<2).map { _ in try EventStreamClient(port: server.port) }
            #expect(eventually { hub.count == 2 })
            let refused = try TestConnection.request(port: server.port, "/events")
            #expect(refused.status == 503)
            #expect(refused.text.contains("Too many event streams are open"))
            #expect(hub.count == 3 && hub.all[2].isClosed)
            hub.all[0].send(data: "first")
            #expect(try streams[0].read(events: 1) == ["data: first"])
        }
    }

    @Test func aClientHangingUpIsNoticedWithoutWaitingForAHeartbeat() throws {
        let hub = StreamHub()
        let closed = ClosedFlag()
        let configuration = ServerConfiguration(port: 0, threadCount: 1, heartbeatInterval: .seconds(3600))
        try withServer(configuration: configuration, routes: hub.routes()) { server throws in
            var client: EventStreamClient? = try EventStreamClient(port: server.port)
            #expect(eventually { hub.count == 1 })
            hub.all[0].onClose { closed.set() }
            client = nil
            #expect(client == nil)
            #expect(eventually { closed.isSet })
        }
    }

    @Test func whatTheSocketCannotTakeAtOnceIsSentWhenTheClientReads() throws {
        let hub = StreamHub()
        // No heartbeat in the middle: under ThreadSanitizer the 16 MiB take longer than its default 15 s.
        let configuration = ServerConfiguration(
            port: 0, threadCount: 1, heartbeatInterval: .seconds(3600), maxStreamBuffer: 64 << 20)
        try withServer(configuration: configuration, routes: hub.routes()) { server throws in
            let client = try EventStreamClient(port: server.port)
            #expect(eventually { hub.count == 1 })
            // 16 MiB while the client reads nothing: more than the socket buffers hold, so most of it waits for room.
            let line = String(repeating: "x", count: 16 * 1024 - 32)
            for id in 0..<1024 { hub.all[0].send(id: "\(id)", data: line) }
            hub.all[0].close()
            #expect(client.readUntilEnd())
            let blocks = client.blocks
            #expect(blocks.count == 1024)
            #expect(blocks.enumerated().allSatisfy { $0.element == "id: \($0.offset)\ndata: \(line)" })
        }
    }

    @Test func bytesAClientSendsAfterItsRequestAreReadAndDropped() throws {
        let hub = StreamHub()
        try withServer(configuration: twoConnections, routes: hub.routes()) { server throws in
            let client = try EventStreamClient(port: server.port)
            #expect(eventually { hub.count == 1 })
            try client.connection.send(String(repeating: "GET /ok HTTP/1.1\r\nHost: x\r\n\r\n", count: 100))
            usleep(50_000)
            hub.all[0].send(data: "unaffected")
            #expect(try client.read(events: 1) == ["data: unaffected"])
            #expect(!hub.all[0].isClosed)
        }
    }

    @Test func aStreamWhoseHeadersWouldBreakTheirLinesIsA500AndInjectsNothing() throws {
        let stream = EventStream()
        let routes: (Router) -> Void = { router in
            router.get("/events") { _ in
                var response = Response.eventStream(stream)
                response.headers["X-Note"] = "fine\r\nSet-Cookie: stolen=1"
                return response
            }
        }
        try withServer(configuration: twoConnections, routes: routes) { server throws in
            let response = try TestConnection.request(port: server.port, "/events")
            #expect(response.status == 500)
            #expect(response[header: "Set-Cookie"] == nil && response[header: "X-Note"] == nil)
            #expect(eventually { stream.isClosed })
        }
    }

    @Test func eventsOnEitherSideOfTheFirstReadsRoomArriveWhole() throws {
        let hub = StreamHub()
        try withServer(configuration: twoConnections, routes: hub.routes()) { server throws in
            let client = try EventStreamClient(port: server.port)
            #expect(eventually { hub.count == 1 })
            // Framed sizes just under, at and over what a wake reads first, and far over: each read whole or
            // read again with more room, in order, none cut or repeated.
            let room = AdoptedStream.smallChunkCapacity
            let lengths = [room - 40, room - 20, room - 19, room, 3 * room, 20 * room, 10]
            for (id, length) in lengths.enumerated() {
                hub.all[0].send(id: "\(id)", data: String(repeating: "x", count: length))
            }
            let events = try client.read(events: lengths.count)
            #expect(
                events
                    == lengths.enumerated().map {
                        "id: \($0.offset)\ndata: " + String(repeating: "x", count: $0.element)
                    })
        }
    }

    @Test func aReadOfAllOrNothingTakesNothingThatDoesNotFit() {
        let stream = EventStream()
        let waker = IdleWaker()
        let event = FramedEvent(name: "patch", id: 7, data: Array("[\"replace\",\"v3\",\"<b>8.1</b>\"]".utf8))!
        stream.send(event)
        var small = [UInt8](repeating: 0, count: event.count - 1)
        var large = [UInt8](repeating: 0, count: 4 * event.count)
        let refused = small.withUnsafeMutableBytes { stream.read(into: $0, parkingWith: waker, whole: true) {} }
        #expect(refused == .needsRoom)
        let read = large.withUnsafeMutableBytes { stream.read(into: $0, parkingWith: waker, whole: true) {} }
        #expect(read == .bytes(event.count))
        #expect(Array(large.prefix(event.count)) == event.bytes)
        // Two events, the second behind the first in the stream's buffer: both or neither.
        stream.send(event)
        stream.send(event)
        small = [UInt8](repeating: 0, count: 2 * event.count - 1)
        #expect(
            small.withUnsafeMutableBytes { stream.read(into: $0, parkingWith: waker, whole: true) {} } == .needsRoom)
        let both = large.withUnsafeMutableBytes { stream.read(into: $0, parkingWith: waker, whole: true) {} }
        #expect(both == .bytes(2 * event.count))
        #expect(Array(large.prefix(2 * event.count)) == event.bytes + event.bytes)
        // Not asked for whole: as much as fits, the rest after.
        stream.send(event)
        small = [UInt8](repeating: 0, count: event.count - 1)
        #expect(
            small.withUnsafeMutableBytes { stream.read(into: $0, parkingWith: waker) {} } == .bytes(event.count - 1))
        #expect(large.withUnsafeMutableBytes { stream.read(into: $0, parkingWith: waker) {} } == .bytes(1))
    }

    /// An event sent in a namespace (``EventStream/send(_:inNamespace:)``) is the bytes of the named event
    /// (``FramedEvent/inNamespace(_:)``), whether it is kept as its parts (nothing unsent) or framed behind unsent
    /// bytes, for ids of any sign and an event already in another namespace; its size counts against the bound.
    @Test func anEventSentInANamespaceIsTheNamedEventsBytes() {
        let waker = IdleWaker()
        for id in [0, 12, Int.max, -1, Int.min] {
            let events = [
                FramedEvent(name: "patch", id: id, lineOfData: Array("[\"replace\",\"v3\",\"8.1\"]".utf8)),
                FramedEvent(name: "title", id: id, lineOfData: []).inNamespace("old"),
            ]
            for event in events {
                let named = event.inNamespace("Ab-9_z")
                #expect(event.count(inNamespace: "Ab-9_z") == named.count)
                let stream = EventStream()
                var destination = [UInt8](repeating: 0, count: 4 * named.count)
                // Alone: kept as its parts.
                #expect(stream.send(event, inNamespace: "Ab-9_z"))
                let read = destination.withUnsafeMutableBytes { stream.read(into: $0, parkingWith: waker) {} }
                #expect(read == .bytes(named.count), "\(id)")
                #expect(Array(destination.prefix(named.count)) == named.bytes, "\(id)")
                // Three: the second and third framed behind the first in the buffer.
                for _ in 0..<3 { #expect(stream.send(event, inNamespace: "Ab-9_z")) }
                let all = destination.withUnsafeMutableBytes { stream.read(into: $0, parkingWith: waker) {} }
                #expect(all == .bytes(3 * named.count), "\(id)")
                #expect(Array(destination.prefix(3 * named.count)) == named.bytes + named.bytes + named.bytes, "\(id)")
            }
        }
        // The named size is what the bound is checked against: an event that fits unnamed but not named overflows.
        let event = FramedEvent(name: "patch", id: 1, lineOfData: Array("[1]".utf8))
        let stream = EventStream()
        #expect(stream.attach(bufferLimit: event.count + 1))
        #expect(stream.send(event, inNamespace: "") == true)
        #expect(stream.send(event, inNamespace: "ab") == false)
        #expect(stream.hasOverflowed)
    }
}

private final class IdleWaker: StreamWaker {
    func wake() {}
}
