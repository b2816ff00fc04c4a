import Foundation
import HTTPServer
import Synchronization
import TestSupport
import Testing

/// Routes added with `Router.receive`: the body arrives in pieces, past `maxBodySize`, never whole; a refusal
/// answers before the body is read; a client that leaves mid-body is reported.
@Suite struct BodyRouteTests {
    /// Counts what it receives and keeps the largest piece; refuses past `limit`.
    final class Counter: RequestBodyReceiver {
        let log: Log
        let limit: Int
        var count = 0
        var refused = false

        init(log: Log, limit: Int) {
            self.log = log
            self.limit = limit
        }

        func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
            guard count + bytes.count <= limit else {
                refused = true
                return false
            }
            count += bytes.count
            log.largestPiece.withLock { $0 = max($0, bytes.count) }
            return true
        }

        func finish() -> Response {
            log.events.withLock { $0.append("finished \(count)") }
            return !refused ? .text("\(count)") : .error(.contentTooLarge, message: "too long")
        }

        func abandon() { log.events.withLock { $0.append("abandoned \(count)") } }
    }

    final class Log: Sendable {
        let events = Mutex<[String]>([])
        let largestPiece = Mutex(0)
    }

    func routes(_ log: Log, limit: Int = 10 << 20) -> (Router) -> Void {
        { router in
            router.receive(.put, "/files/:name") { request in
                if request.parameters["name"] == "refused" {
                    return .respond(.error(.forbidden, message: "not this one"))
                }
                return .receive(Counter(log: log, limit: limit))
            }
        }
    }

    @Test func aBodyLargerThanMaxBodySizeStreamsInPieces() throws {
        let log = Log()
        let body = [UInt8](repeating: 42, count: 3 << 20)
        try withServer(routes: routes(log)) { server in
            let response = try TestConnection.request(port: server.port, "/files/a", method: "PUT", body: body)
            #expect(response.status == 200)
            #expect(response.text == String(3 << 20))
        }
        #expect(log.events.withLock { $0 } == ["finished \(3 << 20)"])
        // The server's 64 KiB body limit does not apply, and no piece is the whole body.
        #expect(log.largestPiece.withLock { $0 } < 1 << 20)
    }

    /// Only a request of a method some body route has is looked up among the body routes: a GET or POST at the same
    /// path reaches its ordinary route (or none), and the PUT still streams into its receiver.
    @Test func requestsOfOtherMethodsReachTheOrdinaryRoutes() throws {
        let log = Log()
        try withServer(routes: { router in
            routes(log)(router)
            router.get("/files/:name") { request in .text("get \(request.parameters["name"] ?? "")") }
        }) { server in
            let get = try TestConnection.request(port: server.port, "/files/a")
            #expect(get.status == 200)
            #expect(get.text == "get a")
            let post = try TestConnection.request(port: server.port, "/files/a", method: "POST", body: [1, 2, 3])
            #expect(post.status == 405)
            let put = try TestConnection.request(port: server.port, "/files/a", method: "PUT", body: [1, 2, 3])
            #expect(put.status == 200)
            #expect(put.text == "3")
        }
        #expect(log.events.withLock { $0 } == ["finished 3"])
    }

    @Test func aRefusalIsAnsweredBeforeTheBodyIsSent() throws {
        let log = Log()
        try withServer(routes: routes(log)) { server in
            let connection = try TestConnection(port: server.port)
            defer { connection.close() }
            try connection.send("PUT /files/refused HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n")
            #expect(try connection.readResponse().status == 403)
        }
        #expect(log.events.withLock { $0 }.isEmpty)
    }

    /// The receiver learns that the client left, with the bytes it got. libmicrohttpd may notice the close only when
    /// the connection's idle timeout runs out (when it has not read to the end of what was sent), so the server here
    /// times out idle connections after 2 s, and the count is at most what was sent.
    @Test func aClientLeavingMidBodyIsReported() throws {
        let log = Log()
        var configuration = ServerConfiguration(port: 0, threadCount: 2)
        configuration.idleTimeout = .seconds(2)
        try withServer(configuration: configuration, routes: routes(log)) { server in
            let connection = try TestConnection(port: server.port)
            try connection.send(
                Array("PUT /files/a HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n".utf8)
                    + [UInt8](repeating: 1, count: 30000))
            connection.close()
            #expect(eventually(within: 10) { !log.events.withLock { $0 }.isEmpty })
            let events = log.events.withLock { $0 }
            #expect(events.count == 1)
            let received = events.first.flatMap { $0.hasPrefix("abandoned ") ? Int($0.dropFirst(10)) : nil }
            #expect(received.map { (0...30000).contains($0) } == true, "\(events)")
        }
    }

    @Test func aReceiverThatRefusesGetsItsAnswerOrTheConnectionCloses() throws {
        let log = Log()
        try withServer(routes: routes(log, limit: 1000)) { server in
            // A little past the limit: the rest is dropped and the receiver answers.
            let small = try TestConnection.request(
                port: server.port, "/files/a", method: "PUT", body: [UInt8](repeating: 1, count: 5000))
            #expect(small.status == 413)
            // Far past it: the connection is closed while the client is still sending.
            let connection = try TestConnection(port: server.port)
            defer { connection.close() }
            try connection.send("PUT /files/a HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n")
            let chunk = [UInt8](repeating: 1, count: 256 << 10)
            var sent = 0
            while sent < 100_000_000, (try? connection.send(chunk)) != nil { sent += chunk.count }
            #expect(sent < 100_000_000)
        }
        #expect(log.events.withLock { $0 }.first == "finished 0")
        #expect(log.events.withLock { $0 }.last == "abandoned 0")
    }

    @Test func routerRespondFeedsABodyInMemoryToTheReceiver() throws {
        let log = Log()
        let router = Router()
        routes(log)(router)
        let response = router.respond(to: Request(method: .put, target: "/files/b", body: [1, 2, 3]))
        #expect(response.status == .ok)
        #expect(log.events.withLock { $0 } == ["finished 3"])
    }
}
