import Glibc
import HTTPServer
import Synchronization
import TestSupport
import Testing

/// Body routes whose receiver takes large pieces: past its first piece, the body is read off the connection's socket
/// by a reader of its own (libmicrohttpd lets the connection go), the answer is sent from there, and the connection
/// goes back to libmicrohttpd for its next request.
@Suite struct LargeBodyTests {
    /// Checks that the bytes arrive in order (byte `i` of the body is `i % 251`), counts them, and notes the thread
    /// of the first piece and of the last; refuses past `limit`.
    final class Checker: RequestBodyReceiver {
        let log: Log
        let limit: Int
        var count = 0
        var inOrder = true
        var refused = false

        init(log: Log, limit: Int) {
            self.log = log
            self.limit = limit
        }

        var takesLargePieces: Bool { true }

        func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
            guard count + bytes.count <= limit else {
                refused = true
                return false
            }
            for (index, byte) in bytes.enumerated() where byte != UInt8((count + index) % 251) { inOrder = false }
            let thread = UInt(pthread_self())
            log.threads.withLock { threads in
                if threads.isEmpty { threads.append(thread) }
                if threads.count == 1 { threads.append(thread) } else { threads[1] = thread }
            }
            count += bytes.count
            return true
        }

        func finish() -> Response {
            log.events.withLock { $0.append("finished \(count)\(inOrder ? "" : " out of order")") }
            return !refused ? .text("\(count)") : .error(.contentTooLarge, message: "too long")
        }

        func abandon() { log.events.withLock { $0.append("abandoned \(count)") } }
    }

    final class Log: Sendable {
        let events = Mutex<[String]>([])
        /// The thread of the first piece and of the last.
        let threads = Mutex<[UInt]>([])
    }

    func routes(_ log: Log, limit: Int = 64 << 20) -> (Router) -> Void {
        { router in
            router.receive(.put, "/files/:name") { _ in .receive(Checker(log: log, limit: limit)) }
            router.get("/ping") { _ in .text("pong") }
        }
    }

    static func body(_ count: Int) -> [UInt8] { (0..<count).map { UInt8($0 % 251) } }

    @Test func aLargeBodyIsReadByItsOwnReaderAndTheConnectionGoesOn() throws {
        let log = Log()
        let size = 3 << 20
        try withServer(routes: routes(log)) { server in
            let connection = try TestConnection(port: server.port, timeout: 30)
            defer { connection.close() }
            try connection.send(
                Array("PUT /files/a HTTP/1.1\r\nHost: x\r\nContent-Length: \(size)\r\n\r\n".utf8) + Self.body(size))
            let response = try connection.readResponse()
            #expect(response.status == 200)
            #expect(response.text == String(size))
            #expect(response.header("Connection") == nil)
            // The same connection, back with libmicrohttpd, answers its next request.
            try connection.send("GET /ping HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try connection.readResponse().text == "pong")
        }
        #expect(log.events.withLock { $0 } == ["finished \(size)"])
        // The first piece comes from libmicrohttpd's I/O thread, the last from the body's reader.
        let threads = log.threads.withLock { $0 }
        #expect(threads.count == 2 && threads[0] != threads[1], "\(threads)")
    }

    /// The reader takes exactly the body: a request sent right behind it (pipelined) is libmicrohttpd's to answer.
    @Test func aRequestSentRightAfterTheBodyIsAnswered() throws {
        let log = Log()
        let size = 1 << 20
        try withServer(routes: routes(log)) { server in
            let connection = try TestConnection(port: server.port, timeout: 30)
            defer { connection.close() }
            try connection.send(
                Array("PUT /files/a HTTP/1.1\r\nHost: x\r\nContent-Length: \(size)\r\n\r\n".utf8) + Self.body(size)
                    + Array("GET /ping HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            #expect(try connection.readResponse().text == String(size))
            #expect(try connection.readResponse().text == "pong")
        }
        #expect(log.events.withLock { $0 } == ["finished \(size)"])
    }

    @Test func aSmallBodyStaysWithLibmicrohttpd() throws {
        let log = Log()
        try withServer(routes: routes(log)) { server in
            let response = try TestConnection.request(
                port: server.port, "/files/a", method: "PUT", body: Self.body(20000))
            #expect(response.text == "20000")
        }
        #expect(log.events.withLock { $0 } == ["finished 20000"])
        let threads = log.threads.withLock { $0 }
        #expect(threads.count == 2 && threads[0] == threads[1], "\(threads)")
    }

    @Test func connectionCloseIsAnsweredAndClosed() throws {
        let log = Log()
        try withServer(routes: routes(log)) { server in
            let connection = try TestConnection(port: server.port, timeout: 30)
            defer { connection.close() }
            try connection.send(
                Array("PUT /files/a HTTP/1.0\r\nHost: x\r\nContent-Length: \(1 << 20)\r\n\r\n".utf8)
                    + Self.body(1 << 20))
            let response = try connection.readResponse()
            #expect(response.text == String(1 << 20))
            #expect(response.header("Connection")?.lowercased() == "close")
            #expect(connection.isClosedByServer())
        }
        #expect(log.events.withLock { $0 } == ["finished \(1 << 20)"])
    }

    @Test func aClientLeavingMidBodyIsReported() throws {
        let log = Log()
        try withServer(routes: routes(log)) { server in
            let connection = try TestConnection(port: server.port, timeout: 30)
            try connection.send(
                Array("PUT /files/a HTTP/1.1\r\nHost: x\r\nContent-Length: \(4 << 20)\r\n\r\n".utf8)
                    + Self.body(300_000))
            connection.close()
            #expect(eventually(within: 10) { !log.events.withLock { $0 }.isEmpty })
        }
        let events = log.events.withLock { $0 }
        #expect(events.count == 1)
        let received = events.first.flatMap { $0.hasPrefix("abandoned ") ? Int($0.dropFirst(10)) : nil }
        #expect(received.map { (0...300_000).contains($0) } == true, "\(events)")
    }

    @Test func aRefusalPastTheFirstPieceIsAnsweredOrTheConnectionCloses() throws {
        let log = Log()
        try withServer(routes: routes(log, limit: 100_000)) { server in
            // A little past the limit: the rest is dropped and the receiver answers.
            let small = try TestConnection.request(
                port: server.port, "/files/a", method: "PUT", body: Self.body(400_000))
            #expect(small.status == 413)
            // Far past it: the connection is closed while the client is still sending.
            let connection = try TestConnection(port: server.port, timeout: 30)
            defer { connection.close() }
            try connection.send("PUT /files/b HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n")
            let chunk = [UInt8](repeating: 1, count: 256 << 10)
            var sent = 0
            while sent < 100_000_000, (try? connection.send(chunk)) != nil { sent += chunk.count }
            #expect(sent < 100_000_000)
            #expect(eventually(within: 10) { log.events.withLock { $0 }.count == 2 })
        }
        let events = log.events.withLock { $0 }
        #expect(events.first?.hasPrefix("finished ") == true, "\(events)")
        #expect(events.last?.hasPrefix("abandoned ") == true, "\(events)")
    }

    /// A stop does not wait for a client that sends nothing more: the reader is ended, and its receiver told.
    @Test func aStopEndsABodyBeingRead() throws {
        let log = Log()
        let connection = try withServer(routes: routes(log)) { server in
            let connection = try TestConnection(port: server.port, timeout: 30)
            try connection.send(
                Array("PUT /files/a HTTP/1.1\r\nHost: x\r\nContent-Length: \(4 << 20)\r\n\r\n".utf8)
                    + Self.body(300_000))
            #expect(eventually(within: 10) { log.threads.withLock { $0.count == 2 && $0[0] != $0[1] } })
            return connection
        }
        defer { connection.close() }
        let events = log.events.withLock { $0 }
        #expect(events.count == 1 && events.first?.hasPrefix("abandoned ") == true, "\(events)")
    }
}
