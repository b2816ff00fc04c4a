import HTTPServer
import Synchronization
import Testing

/// Only a path reaches a route: the asterisk form belongs to `OPTIONS`, and the absolute form and an empty target are
/// refused, over a real socket.
@Suite struct RequestTargetTests {
    /// Every route counts its calls, so a test can tell that nothing reached one.
    private final class Calls: Sendable {
        private let count = Atomic<Int>(0)
        var value: Int { count.load(ordering: .sequentiallyConsistent) }
        func record() { count.add(1, ordering: .sequentiallyConsistent) }
    }

    private func routes(_ calls: Calls) -> (Router) -> Void {
        { router in
            router.get("/") { _ in
                calls.record()
                return .html("<p>home</p>")
            }
            router.post("/movies/:id") { _ in
                calls.record()
                return .text("posted")
            }
            router.get("/*rest") { _ in
                calls.record()
                return .text("anything")
            }
        }
    }

    @Test(arguments: ["HEAD", "GET", "POST", "DELETE"])
    func asteriskWithAnyMethodButOptionsIs400AndReachesNoRoute(method: String) throws {
        let calls = Calls()
        try withServer(routes: routes(calls)) { server throws in
            let connection = try TestConnection(port: server.port)
            let body = method == "POST" ? "Content-Length: 0\r\n" : ""
            try connection.send("\(method) * HTTP/1.1\r\nHost: x\r\n\(body)\r\n")
            let response = try connection.readResponse(hasBody: method != "HEAD")
            #expect(response.status == 400)
            if method != "HEAD" { #expect(response.text.contains("only meaningful with OPTIONS")) }
        }
        #expect(calls.value == 0)
    }

    @Test func optionsAsteriskSaysWhatTheServerSupportsAndReachesNoRoute() throws {
        let calls = Calls()
        try withServer(routes: routes(calls)) { server throws in
            let connection = try TestConnection(port: server.port)
            try connection.send("OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n")
            let options = try connection.readResponse(hasBody: false)
            #expect(options.status == 204)
            #expect(options[header: "Allow"] == "GET, POST, HEAD, OPTIONS")
            // The connection stays usable: the next request is answered as usual.
            #expect(try connection.readResponse().text == "<p>home</p>")
        }
        #expect(calls.value == 1)
    }

    @Test(arguments: ["http://x/", "http://x/movies/1", "movies/1", "x"])
    func aTargetThatIsNotAPathIs400AndReachesNoRoute(target: String) throws {
        let calls = Calls()
        try withServer(routes: routes(calls)) { server throws in
            let connection = try TestConnection(port: server.port)
            try connection.send("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 400, "\(target)")
        }
        #expect(calls.value == 0)
    }

    @Test func theRouterItselfRefusesANonPathTarget() {
        let router = Router()
        router.get("/") { _ in .text("home") }
        #expect(router.respond(to: Request(method: .head, target: "*")).status == 400)
        #expect(router.respond(to: Request(method: .get, target: "")).status == 400)
        #expect(router.respond(to: Request(method: .options, target: "*")).status == 204)
        #expect(router.respond(to: Request(method: .get, target: "/")).status == 200)
    }
}
