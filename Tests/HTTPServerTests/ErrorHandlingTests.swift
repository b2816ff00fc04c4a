import HTTPServer
import Testing

@Suite struct ErrorHandlingTests {
    private struct DatabaseFailure: Error {
        let detail = "password=hunter2 at /srv/db.sqlite"
    }

    private func routes(_ router: Router) {
        router.get("/teapot") { _ in throw HTTPError(418, message: "Short & <stout>") }
        router.get("/crash") { _ in throw DatabaseFailure() }
        router.get("/redirect") { _ in .redirect(to: "/movies/1") }
        router.get("/empty") { _ in .noContent }
    }

    @Test func httpErrorRendersItsStatusAndEscapedMessage() throws {
        try withServer(routes: routes) { server throws in
            let response = try TestConnection.request(port: server.port, "/teapot")
            #expect(response.status == 418)
            #expect(response.text.contains("Short &amp; &lt;stout&gt;"))
        }
    }

    @Test func otherErrorsAre500sThatLeakNothing() throws {
        try withServer(routes: routes) { server throws in
            let response = try TestConnection.request(port: server.port, "/crash")
            #expect(response.status == 500)
            #expect(!response.text.contains("hunter2"))
            #expect(!response.text.contains("DatabaseFailure"))
        }
    }

    @Test func redirectsAre303WithLocation() throws {
        try withServer(routes: routes) { server throws in
            let response = try TestConnection.request(port: server.port, "/redirect")
            #expect(response.status == 303)
            #expect(response[header: "Location"] == "/movies/1")
        }
    }

    @Test func noContentHasNoBody() throws {
        try withServer(routes: routes) { server throws in
            let connection = try TestConnection(port: server.port)
            try connection.send("GET /empty HTTP/1.1\r\nHost: x\r\n\r\nGET /redirect HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try connection.readResponse().status == 204)
            #expect(try connection.readResponse().status == 303)
        }
    }
}
