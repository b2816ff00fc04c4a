import HTTPServer
import Testing

@Suite struct RoutingTests {
    private func routes(_ router: Router) {
        router.get("/movies/:id") { request in .text("movie \(request.parameters["id"] ?? "?")") }
        router.post("/movies/:id") { request in .text("posted \(request.parameters["id"] ?? "?")") }
        router.get("/files/*rest") { request in .text("rest=\(request.parameters["rest"] ?? "?")") }
        router.get("/") { _ in .html("<p>home</p>") }
    }

    @Test func routesByMethodAndPathWithDecodedParameters() throws {
        try withServer(routes: routes) { server throws in
            let get = try TestConnection.request(port: server.port, "/movies/42")
            #expect(get.status == 200)
            #expect(get.text == "movie 42")
            #expect(get[header: "Content-Type"] == "text/plain; charset=utf-8")
            let post = try TestConnection.request(port: server.port, "/movies/caf%C3%A9", method: "POST")
            #expect(post.text == "posted café")
            let home = try TestConnection.request(port: server.port, "/")
            #expect(home.text == "<p>home</p>")
        }
    }

    @Test func wildcardCapturesTheRestOfThePath() throws {
        try withServer(routes: routes) { server throws in
            #expect(try TestConnection.request(port: server.port, "/files/a/b/c.txt").text == "rest=a/b/c.txt")
            #expect(try TestConnection.request(port: server.port, "/files/").text == "rest=")
        }
    }

    @Test func unknownPathIs404() throws {
        try withServer(routes: routes) { server throws in
            let response = try TestConnection.request(port: server.port, "/nothing/here")
            #expect(response.status == 404)
            #expect(response[header: "Content-Type"] == "text/html; charset=utf-8")
            // `:id` needs a non-empty segment.
            #expect(try TestConnection.request(port: server.port, "/movies/").status == 404)
            #expect(try TestConnection.request(port: server.port, "/movies/1/extra").status == 404)
        }
    }

    @Test func wrongMethodIs405WithAllow() throws {
        try withServer(routes: routes) { server throws in
            let response = try TestConnection.request(port: server.port, "/movies/1", method: "DELETE")
            #expect(response.status == 405)
            #expect(response[header: "Allow"] == "GET, POST, HEAD")
        }
    }

    @Test func headAnswersEveryGetWithHeadersOnly() throws {
        try withServer(routes: routes) { server throws in
            let connection = try TestConnection(port: server.port)
            try connection.send("HEAD /movies/7 HTTP/1.1\r\nHost: x\r\n\r\nGET /movies/8 HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try connection.readResponse(hasBody: false)
            #expect(head.status == 200)
            #expect(head[header: "Content-Length"] == "7")
            // The next response on the same connection starts right after the head: no body was sent.
            let get = try connection.readResponse()
            #expect(get.text == "movie 8")
        }
    }

    @Test func keepsConnectionsAliveAcrossRequests() throws {
        try withServer(routes: routes) { server throws in
            let connection = try TestConnection(port: server.port)
            for id in 1...5 {
                try connection.send("GET /movies/\(id) HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try connection.readResponse().text == "movie \(id)")
            }
        }
    }

    @Test func routerAnswersWithoutAServer() {
        let router = Router()
        routes(router)
        let response = router.respond(to: Request(method: .get, target: "/movies/9"))
        #expect(response.status == .ok)
        guard case .bytes(let body) = response.body else {
            Issue.record("expected bytes")
            return
        }
        #expect(String(decoding: body, as: UTF8.self) == "movie 9")
    }
}
