import Foundation
import HTTPServer
import Synchronization
import TestSupport
import Testing

/// Slow clients, floods and clients that hang up part way: each is bounded by a limit or a timeout, frees what it
/// held, and never stops the server serving others.
@Suite struct ConnectionExhaustionTests {
    /// The connections the server on `port` still holds a socket for. Counting this process's descriptors instead
    /// would be noisy, since other suites open and close sockets in parallel; the kernel's table of TCP sockets names
    /// each one by its local port, and a socket whose descriptor has been closed shows inode 0 while it lingers.
    private func openServerConnections(port: Int) -> Int {
        var count = 0
        for table in ["/proc/self/net/tcp", "/proc/self/net/tcp6"] {
            // Read to the end: procfs reports a size of 0, which whole-file readers take at its word.
            guard let data = FileHandle(forReadingAtPath: table)?.readDataToEndOfFile() else { continue }
            let text = String(decoding: data, as: UTF8.self)
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 9, let colon = fields[1].lastIndex(of: ":") else { continue }
                let isOurs = UInt16(fields[1][fields[1].index(after: colon)...], radix: 16).map(Int.init) == port
                let isListening = fields[3] == "0A"
                let isOpen = fields[9] != "0"
                if isOurs && !isListening && isOpen { count += 1 }
            }
        }
        return count
    }

    @Test func slowlorisConnectionsAreClosedByTheIdleTimeoutWhileOthersAreServed() throws {
        let configuration = ServerConfiguration(port: 0, threadCount: 2, idleTimeout: .seconds(1))
        try withServer(configuration: configuration, routes: { $0.get("/ok") { _ in .text("ok") } }) { server throws in
            let slow = try (0..<50).map { index in
                let connection = try TestConnection(port: server.port, timeout: 5)
                try connection.send("GET /ok HTTP/1.1\r\nHost: x\r\nX-Slow-\(index): ")
                return connection
            }
            for _ in 0..<20 { #expect(try TestConnection.request(port: server.port, "/ok").text == "ok") }
            for connection in slow { #expect(connection.isClosedByServer()) }
        }
    }

    @Test func clientsHangingUpMidResponseFreeTheirSockets() throws {
        let big = [UInt8](repeating: UInt8(ascii: "x"), count: 8 << 20)
        try withServer(routes: { $0.get("/big") { _ in .html(bytes: big) } }) { server throws in
            _ = try TestConnection.request(port: server.port, "/big")
            // The server is this test's own: once the warm-up connection is gone, it holds no socket.
            #expect(eventually(within: 10) { openServerConnections(port: server.port) == 0 })
            for _ in 0..<30 {
                let connection = try TestConnection(port: server.port)
                try connection.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
                _ = try connection.readHead()
                #expect(openServerConnections(port: server.port) > 0, "the count must see an open connection")
                try connection.fill()
                // Goes out of scope here: the client closes with most of the body unsent.
            }
            #expect(eventually(within: 10) { openServerConnections(port: server.port) == 0 })
            #expect(try TestConnection.request(port: server.port, "/big").body.count == big.count)
        }
    }

    @Test func aReaderCutOffForFallingBehindLosesItsSocketThoughItNeverReadsAgain() throws {
        let hub = StreamHub()
        let configuration = ServerConfiguration(port: 0, threadCount: 1, maxStreamBuffer: 64 * 1024)
        try withServer(configuration: configuration, routes: hub.routes()) { server throws in
            let client = try EventStreamClient(port: server.port)  // and never reads again
            #expect(eventually { hub.count == 1 })
            #expect(openServerConnections(port: server.port) == 1)
            let payload = String(repeating: "x", count: 1000)
            for id in 0..<20_000 where !hub.all[0].isClosed { hub.all[0].send(id: "\(id)", data: payload) }
            #expect(hub.all[0].isClosed)
            #expect(eventually(within: 10) { openServerConnections(port: server.port) == 0 })
            _ = client
        }
    }

    @Test func streamsEndOnceEachUnderWritersHangUpsOverflowsAndAStop() throws {
        // 120 streams: writers on four threads send events of every size and now and then close a stream, a third
        // of the clients hang up, a third never read (and are cut off), a third read everything; then the server
        // stops. Every stream ends exactly once and the server keeps no socket.
        let hub = StreamHub()
        let ended = TestMutex<[ObjectIdentifier: Int]>([:])
        let configuration = ServerConfiguration(
            port: 0, threadCount: 2, heartbeatInterval: .milliseconds(20), maxStreamBuffer: 32 * 1024)
        let routes: (Router) -> Void = { router in
            router.get("/events") { _ in
                let stream = EventStream()
                let key = ObjectIdentifier(stream)
                stream.onClose { ended.withLock { $0[key, default: 0] += 1 } }
                hub.add(stream)
                return .eventStream(stream)
            }
        }
        let router = Router()
        routes(router)
        let server = HTTPServer(configuration: configuration, router: router)
        try server.start()
        let port = server.port
        var clients: [EventStreamClient?] = try (0..<120).map { _ in try EventStreamClient(port: port) }
        #expect(eventually { hub.count == 120 })
        let streams = hub.all
        let stop = Atomic<Bool>(false)
        let writers = DispatchGroup()
        for writer in 0..<4 {
            DispatchQueue.global().async(group: writers) {
                var generator = SystemRandomNumberGenerator()
                var sent = 0
                while !stop.load(ordering: .relaxed) {
                    let stream = streams[Int.random(in: 0..<streams.count, using: &generator)]
                    if sent % 997 == writer { stream.close() }
                    stream.send(id: "\(sent)", data: String(repeating: "w", count: Int.random(in: 0...3000)))
                    sent += 1
                }
            }
        }
        let readers = DispatchGroup()
        for index in stride(from: 2, to: 120, by: 3) {
            let client = ReadingClient(clients[index]!)
            DispatchQueue.global().async(group: readers) { _ = client.value.readUntilEnd() }
        }
        for index in stride(from: 0, to: 120, by: 3) {
            clients[index] = nil  // hangs up
            usleep(2_000)
        }
        usleep(200_000)
        server.stop()
        stop.store(true, ordering: .relaxed)
        writers.wait()
        #expect(readers.wait(timeout: .now() + 10) == .success)
        #expect(streams.allSatisfy { $0.isClosed })
        let counts = ended.withLock { $0 }
        #expect(counts.count == 120 && counts.values.allSatisfy { $0 == 1 })
        #expect(eventually(within: 10) { openServerConnections(port: port) == 0 })
        clients.removeAll()
    }

    @Test func clientsHangingUpMidStreamFreeEveryStreamAndSocket() throws {
        let hub = StreamHub()
        let closed = ClosedFlag()
        var configuration = ServerConfiguration(port: 0, threadCount: 2)
        configuration.heartbeatInterval = .milliseconds(50)
        let routes: (Router) -> Void = { router in
            router.get("/events") { _ in
                let stream = EventStream()
                stream.onClose { closed.set() }
                hub.add(stream)
                return .eventStream(stream)
            }
            router.get("/ok") { _ in .text("ok") }
        }
        try withServer(configuration: configuration, routes: routes) { server throws in
            _ = try TestConnection.request(port: server.port, "/ok")
            #expect(eventually(within: 10) { openServerConnections(port: server.port) == 0 })
            var clients: [EventStreamClient] = try (0..<40).map { _ in try EventStreamClient(port: server.port) }
            #expect(eventually { hub.count == 40 })
            #expect(openServerConnections(port: server.port) >= 40, "the count must see the open streams")
            for stream in hub.all { stream.send(data: "hello") }
            for client in clients { _ = try client.read(events: 1) }
            let weakStreams = hub.all.map { WeakBox($0) }
            hub.removeAll()
            clients.removeAll()
            #expect(clients.isEmpty)
            #expect(eventually(within: 10) { closed.timesSet == 40 })
            #expect(eventually(within: 10) { weakStreams.allSatisfy { $0.value == nil } })
            #expect(eventually(within: 10) { openServerConnections(port: server.port) == 0 })
            #expect(try TestConnection.request(port: server.port, "/ok").text == "ok")
        }
    }
}

/// Holds an object without keeping it alive.
private final class WeakBox<Value: AnyObject> {
    weak var value: Value?
    init(_ value: Value) { self.value = value }
}

/// A client handed to the one thread that reads it (the test thread only keeps it alive).
private final class ReadingClient: @unchecked Sendable {
    let value: EventStreamClient

    init(_ value: EventStreamClient) {
        self.value = value
    }
}
