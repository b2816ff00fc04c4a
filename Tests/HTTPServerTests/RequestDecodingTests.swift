import Foundation
import HTTPServer
import Testing

@Suite struct RequestDecodingTests {
    private struct Echo: Codable, Equatable {
        var title: String
        var rating: Int
    }

    private func routes(_ router: Router) {
        router.get("/query") { request in
            .json(request.query.pairs.map { [$0.name, $0.value] })
        }
        router.post("/form") { request in
            let form = try request.form()
            return .json(form.pairs.map { [$0.name, $0.value] })
        }
        router.post("/json") { request in
            .json(try request.decodeJSON(Echo.self), status: .created)
        }
        router.get("/whoami") { request in
            .json([
                "agent": request.headers["user-agent"] ?? "", "session": request.cookies["session"] ?? "",
                "theme": request.cookies["theme"] ?? "", "remote": request.remoteAddress, "path": request.path,
                "target": request.target,
            ])
        }
    }

    private func pairs(_ response: RawResponse) throws -> [[String]] {
        try JSONDecoder().decode([[String]].self, from: Data(response.body))
    }

    @Test func decodesQueryWithPlusEscapesAndRepeatedKeys() throws {
        try withServer(routes: routes) { server throws in
            let response = try TestConnection.request(
                port: server.port,
                "/query?q=star+wars&genre=drama&genre=sci%2Dfi&name=caf%C3%A9&empty=&flag&a%26b=c%3Dd")
            #expect(
                try pairs(response) == [
                    ["q", "star wars"], ["genre", "drama"], ["genre", "sci-fi"], ["name", "café"], ["empty", ""],
                    ["flag", ""], ["a&b", "c=d"],
                ])
        }
    }

    @Test func queryKeepsBadEscapesAndReplacesInvalidUTF8() throws {
        try withServer(routes: routes) { server throws in
            let response = try TestConnection.request(port: server.port, "/query?pct=100%&bad=%zz&bytes=%FF%FE")
            #expect(try pairs(response) == [["pct", "100%"], ["bad", "%zz"], ["bytes", "\u{FFFD}\u{FFFD}"]])
        }
    }

    @Test func decodesUrlencodedForms() throws {
        try withServer(routes: routes) { server throws in
            let response = try TestConnection.request(
                port: server.port, "/form", method: "POST",
                headers: ["Content-Type: application/x-www-form-urlencoded; charset=UTF-8"],
                body: Array("rating=4&comment=Great+film%21+%E2%9C%93&tag=a&tag=b".utf8))
            #expect(response.status == 200)
            #expect(
                try pairs(response) == [["rating", "4"], ["comment", "Great film! ✓"], ["tag", "a"], ["tag", "b"]])
        }
    }

    @Test func formWithInvalidUTF8IsABadRequest() throws {
        try withServer(routes: routes) { server throws in
            let response = try TestConnection.request(
                port: server.port, "/form", method: "POST",
                headers: ["Content-Type: application/x-www-form-urlencoded"], body: Array("name=%C3%28".utf8))
            #expect(response.status == 400)
            #expect(response.text.contains("not valid UTF-8"))
        }
    }

    @Test func formWithAnotherContentTypeIsUnsupported() throws {
        try withServer(routes: routes) { server throws in
            let response = try TestConnection.request(
                port: server.port, "/form", method: "POST", headers: ["Content-Type: text/plain"],
                body: Array("a=b".utf8))
            #expect(response.status == 415)
        }
    }

    @Test func decodesJSONBodies() throws {
        try withServer(routes: routes) { server throws in
            let response = try TestConnection.request(
                port: server.port, "/json", method: "POST", headers: ["Content-Type: application/json"],
                body: Array(#"{"title":"Alien","rating":5}"#.utf8))
            #expect(response.status == 201)
            #expect(try JSONDecoder().decode(Echo.self, from: Data(response.body)) == Echo(title: "Alien", rating: 5))
        }
    }

    @Test(arguments: [
        (#"{"title":"Alien""#, "not valid JSON"),
        (#"{"title":"Alien"}"#, "Missing field `rating`"),
        (#"{"title":"Alien","rating":"five"}"#, "Wrong type of value at `rating`"),
    ])
    func invalidJSONIsABadRequestThatSaysWhy(body: String, message: String) throws {
        try withServer(routes: routes) { server throws in
            let response = try TestConnection.request(
                port: server.port, "/json", method: "POST", headers: ["Content-Type: application/json"],
                body: Array(body.utf8))
            #expect(response.status == 400)
            #expect(response.text.contains(message), "\(response.text)")
            #expect(!response.text.contains("Echo"))
        }
    }

    @Test func jsonWithAnotherContentTypeIsUnsupported() throws {
        try withServer(routes: routes) { server throws in
            let response = try TestConnection.request(
                port: server.port, "/json", method: "POST", headers: ["Content-Type: text/plain"],
                body: Array(#"{"title":"Alien","rating":5}"#.utf8))
            #expect(response.status == 415)
        }
    }

    @Test func readsHeadersWithoutCaseCookiesRemoteAddressAndDecodedPath() throws {
        try withServer(routes: routes) { server throws in
            let response = try TestConnection.request(
                port: server.port, "/whoami?x=%20+",
                headers: ["USER-AGENT: tests/1.0", "Cookie: session=abc123; theme=\"dark\""])
            let fields = try JSONDecoder().decode([String: String].self, from: Data(response.body))
            #expect(fields["agent"] == "tests/1.0")
            #expect(fields["session"] == "abc123")
            #expect(fields["theme"] == "dark")
            #expect(fields["remote"] == "127.0.0.1")
            #expect(fields["path"] == "/whoami")
            #expect(fields["target"] == "/whoami?x=%20+")
        }
    }
}
