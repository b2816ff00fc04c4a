import Dispatch
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import HTTPServer

/// `Response.deferred`: a handler answers later, from another thread, while its I/O thread serves other connections.
@Suite struct DeferredResponseTests {
    /// A gate a test opens from one request to let another's deferred answer go.
    private final class Gate: Sendable {
        private let waiting = TestMutex<[PendingResponse]>([])
        func hold(_ pending: PendingResponse) { waiting.withLock { $0.append(pending) } }
        var count: Int { waiting.withLock { $0.count } }
        func open(with response: @autoclosure () -> Response) {
            let held = waiting.withLock { list in
                defer { list = [] }
                return list
            }
            for pending in held { pending.respond(response()) }
        }
    }

    /// A started server whose `/wait` answers once `gate` is opened and whose `/ok` answers at once, for tests that
    /// stop the server themselves.
    private func startGatedServer(threadCount: Int) throws -> (HTTPServer, Gate) {
        let gate = Gate()
        let router = Router()
        router.get("/wait") { _ in .deferred { gate.hold($0) } }
        router.get("/ok") { _ in .text("ok") }
        let server = HTTPServer(configuration: ServerConfiguration(port: 0, threadCount: threadCount), router: router)
        try server.start()
        return (server, gate)
    }

    @Test func aResponseGivenLaterFromAnotherThreadIsSentWithItsOwnStatusAndHeaders() throws {
        try withServer(routes: { router in
            router.get("/later") { _ in
                .deferred { pending in
                    DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) {
                        var response = Response.text("given later", status: .created)
                        response.headers["X-Answer"] = "late"
                        pending.respond(response)
                    }
                }
            }
        }) { server throws in
            let response = try TestConnection.request(port: server.port, "/later")
            #expect(response.status == 201)
            #expect(response.text == "given later")
            #expect(response[header: "X-Answer"] == "late")
            #expect(response[header: "Content-Length"] == "11")
        }
    }

    @Test func aResponseGivenBeforeTheWorkReturnsIsSent() throws {
        try withServer(routes: { router in
            router.get("/now") { _ in .deferred { $0.respond(.text("at once")) } }
        }) { server throws in
            for _ in 0..<20 {
                #expect(try TestConnection.request(port: server.port, "/now").text == "at once")
            }
        }
    }

    /// The point of deferring: with one I/O thread, a request waiting in its handler would keep the thread from ever
    /// reading the request that lets it go (the test would time out); deferred, the thread serves it.
    @Test func aWaitingRequestHoldsNoIOThread() throws {
        let gate = Gate()
        try withServer(
            configuration: ServerConfiguration(port: 0, threadCount: 1),
            routes: { router in
                router.get("/wait") { _ in .deferred { gate.hold($0) } }
                router.post("/open") { _ in
                    gate.open(with: .text("let go"))
                    return .noContent
                }
            }
        ) { server throws in
            let waiting = (0..<3).map { _ in
                let connection = try? TestConnection(port: server.port, timeout: 5)
                try? connection?.send("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n")
                return connection
            }
            #expect(eventually { gate.count == 3 })
            // Other requests go on meanwhile, on the same single thread.
            #expect(try TestConnection.request(port: server.port, "/elsewhere").status == 404)
            #expect(try TestConnection.request(port: server.port, "/open", method: "POST").status == 204)
            for connection in waiting {
                let response = try #require(try connection?.readResponse())
                #expect(response.status == 200)
                #expect(response.text == "let go")
            }
        }
    }

    @Test func aConnectionKeptAliveServesItsNextRequestAfterADeferredOne() throws {
        try withServer(routes: { router in
            router.get("/later/:n") { request in
                let n = request.parameters["n"]!
                return .deferred { pending in DispatchQueue.global().async { pending.respond(.text("n=\(n)")) } }
            }
            router.get("/plain") { _ in .text("plain") }
        }) { server throws in
            let connection = try TestConnection(port: server.port)
            defer { connection.close() }
            for n in 0..<5 {
                try connection.send("GET /later/\(n) HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try connection.readResponse().text == "n=\(n)")
                try connection.send("GET /plain HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try connection.readResponse().text == "plain")
            }
        }
    }

    @Test func aPostedBodyIsReadBeforeTheHandlerDefers() throws {
        try withServer(routes: { router in
            router.post("/echo") { request in
                let body = request.body
                return .deferred { pending in
                    DispatchQueue.global().async { pending.respond(Response(body: Array(body.reversed()))) }
                }
            }
        }) { server throws in
            let response = try TestConnection.request(
                port: server.port, "/echo", method: "POST", body: Array("abcdef".utf8))
            #expect(response.text == "fedcba")
        }
    }

    @Test func errorsThrownWhileAnsweringRenderAsAHandlerThrowingThem() throws {
        struct Secret: Error {}
        try withServer(routes: { router in
            router.get("/missing") { _ in
                .deferred { pending in pending.respond { throw HTTPError(.notFound, message: "No such thing.") } }
            }
            router.get("/broken") { _ in .deferred { pending in pending.respond { throw Secret() } } }
        }) { server throws in
            let missing = try TestConnection.request(port: server.port, "/missing")
            #expect(missing.status == 404)
            #expect(missing.text.contains("No such thing."))
            let broken = try TestConnection.request(port: server.port, "/broken")
            #expect(broken.status == 500)
            #expect(!broken.text.contains("Secret"))
            // The page names the request id, as a handler's error page does.
            #expect(broken.text.contains("Request id: "))
        }
    }

    @Test func onlyTheFirstAnswerCounts() throws {
        let later = TestMutex<[Bool]>([])
        try withServer(routes: { router in
            router.get("/twice") { _ in
                .deferred { pending in
                    let first = pending.respond(.text("first"))
                    let second = pending.respond(.text("second"))
                    later.withLock { $0 = [first, second] }
                }
            }
        }) { server throws in
            #expect(try TestConnection.request(port: server.port, "/twice").text == "first")
            #expect(later.withLock { $0 } == [true, false])
        }
    }

    @Test func answersFromManyThreadsAtOnceLetExactlyOneThrough() {
        for _ in 0..<50 {
            let pending = PendingResponse { _ in }
            let readyCalls = Atomic<Int>(0)
            let wins = Atomic<Int>(0)
            pending.start { readyCalls.add(1, ordering: .relaxed) }
            #expect(pending.take() == nil)
            DispatchQueue.concurrentPerform(iterations: 8) { index in
                if pending.respond(.text("\(index)")) { wins.add(1, ordering: .relaxed) }
            }
            #expect(wins.load(ordering: .relaxed) == 1)
            #expect(readyCalls.load(ordering: .relaxed) == 1)
            #expect(pending.take() != nil)
            #expect(pending.take() == nil)
        }
    }

    @Test func headGetsTheDeferredHeadersWithoutTheBody() throws {
        try withServer(routes: { router in
            router.get("/page") { _ in
                .deferred { pending in DispatchQueue.global().async { pending.respond(.text("twelve bytes")) } }
            }
        }) { server throws in
            let response = try TestConnection.request(port: server.port, "/page", method: "HEAD")
            #expect(response.status == 200)
            #expect(response[header: "Content-Length"] == "12")
            #expect(response.text.isEmpty)
        }
    }

    @Test func aDeferredAnswerCanBeAnEventStream() throws {
        try withServer(routes: { router in
            router.get("/events") { _ in
                .deferred { pending in
                    DispatchQueue.global().async {
                        let stream = EventStream()
                        stream.send(event: "hello", data: "deferred")
                        pending.respond(.eventStream(stream))
                        stream.close()
                    }
                }
            }
        }) { server throws in
            let client = try EventStreamClient(port: server.port)
            #expect(try client.read(events: 1) == ["event: hello\ndata: deferred"])
            #expect(client.readUntilEnd())
        }
    }

    @Test func theRequestObserverSeesTheRouteAndTheDeferredStatus() throws {
        let reports = TestMutex<[CompletedRequest]>([])
        var configuration = ServerConfiguration(port: 0, threadCount: 2)
        configuration.requestObserver = { report in reports.withLock { $0.append(report) } }
        try withServer(
            configuration: configuration,
            routes: { router in
                router.get("/items/:id") { _ in
                    .deferred { pending in DispatchQueue.global().async { pending.respond(.text("", status: .gone)) } }
                }
            }
        ) { server throws in
            #expect(try TestConnection.request(port: server.port, "/items/3").status == 410)
            #expect(eventually { reports.withLock { $0.count } == 1 })
        }
        let report = try #require(reports.withLock { $0.first })
        #expect(report.route == "/items/:id")
        #expect(report.status == 410)
    }

    @Test func aClientThatLeavesBeforeTheAnswerLeavesTheServerHealthy() throws {
        let (server, gate) = try startGatedServer(threadCount: 1)
        let connection = try TestConnection(port: server.port)
        try connection.send("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(eventually { gate.count == 1 })
        connection.close()
        gate.open(with: .text("nobody reads this"))
        #expect(try TestConnection.request(port: server.port, "/ok").text == "ok")
        // Nothing left in flight: the stop does not wait out its grace period.
        let started = ContinuousClock.now
        server.stop()
        #expect(ContinuousClock.now - started < .seconds(4))
    }

    /// libmicrohttpd aborts the process when stopped with a suspended connection: the stop answers what is still
    /// waiting.
    @Test func stoppingAnswersWhatIsStillWaitingWith503() throws {
        let (server, gate) = try startGatedServer(threadCount: 2)
        let connection = try TestConnection(port: server.port, timeout: 15)
        defer { connection.close() }
        try connection.send("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(eventually { gate.count == 1 })
        server.stop()
        let response = try connection.readResponse()
        #expect(response.status == 503)
        #expect(response.text.contains("stopping"))
        gate.open(with: .text("too late"))  // Ignored: answered already.
    }

    /// A request deferred after the stop began would leave a suspended connection behind for libmicrohttpd's stop
    /// (which aborts on one) when it came after the stop's wait: it is answered 503 at once instead, while the stop
    /// still waits for a request it held.
    @Test func aRequestDeferredOnceTheStopHasBegunIsAnswered503AtOnce() throws {
        let (server, gate) = try startGatedServer(threadCount: 2)
        let keptAlive = try TestConnection(port: server.port, timeout: 2)
        defer { keptAlive.close() }
        try keptAlive.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try keptAlive.readResponse().text == "ok")
        let held = try TestConnection(port: server.port, timeout: 10)
        defer { held.close() }
        try held.send("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(eventually { gate.count == 1 })
        let stopped = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            server.stop()
            stopped.signal()
        }
        // The stop waits for the held request; once it has begun (new connections are turned away: a fixed sleep
        // was too short on a loaded machine), the kept-alive connection asks for another deferred answer.
        #expect(eventually { (try? TestConnection.request(port: server.port, "/ok")) == nil })
        try keptAlive.send("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n")
        let refused = try keptAlive.readResponse()
        #expect(refused.status == 503)
        #expect(gate.count == 1)
        gate.open(with: .text("answered"))
        #expect(try held.readResponse().text == "answered")
        #expect(stopped.wait(timeout: .now() + 10) == .success)
    }

    @Test func routerRespondWaitsForTheDeferredAnswer() throws {
        let router = Router()
        router.get("/later") { _ in
            .deferred { pending in DispatchQueue.global().async { pending.respond(.text("waited")) } }
        }
        let response = router.respond(to: Request(method: .get, target: "/later"))
        #expect(response.status == 200)
        #expect(response.body.bytes == Array("waited".utf8))
        #expect(response.routePattern == "/later")
    }
}

extension Response.Body {
    fileprivate var bytes: [UInt8]? {
        if case .bytes(let bytes) = self { bytes } else { nil }
    }
}
