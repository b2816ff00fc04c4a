import Foundation
import Screenplay
import ScreenplayTesting
import Testing
import TodoApp

/// The whole app on an ephemeral port, signed in through its `/signin` screen as a browser without JavaScript.
@Suite struct TodoServerTests {
    static let password = "try-the-todos"

    @Test func theListIsBehindTheSignInWhichBringsTheBrowserBack() throws {
        let server = try startServer()
        defer { server.application.stop() }
        let client = LiveClient(port: server.application.port)

        let refused = try client.get("/todos")
        #expect(refused.status == 303)
        #expect(refused.header("Location") == "/signin?next=/todos")

        let cookie = try signIn(client, name: "demo", password: Self.password)
        let page = try client.get("/todos", headers: ["Cookie": cookie])
        #expect(page.status == 200)
        #expect(page.text.contains("Nothing to do."))

        // An item added on this page is added in the signed-in name.
        let live = LivePage(page)
        let added = try client.post(
            try #require(live.actionPath("add")), form: ["csrf": try #require(live.csrfToken), "title": "Buy milk"],
            headers: ["Cookie": cookie])
        #expect(added.status == 303)
        #expect(server.store.items.map(\.addedBy) == ["demo"])
    }

    @Test func aWrongPasswordSignsNobodyIn() throws {
        let server = try startServer()
        defer { server.application.stop() }
        let client = LiveClient(port: server.application.port)
        #expect(throws: (any Error).self) { try signIn(client, name: "demo", password: "wrong") }
        #expect(try client.get("/todos").status == 303)
    }

    private func startServer() throws -> TodoServer {
        var options = ApplicationOptions(program: "todos")
        options.root = TodoServer.resourceRoot
        options.port = 0
        options.accessLog = false
        let server = try TodoServer(options: options)
        try server.application.start()
        return server
    }

    /// Signs in with the sign-in screen's form; returns the `Cookie` header that carries the sign-in.
    private func signIn(_ client: LiveClient, name: String, password: String) throws -> String {
        let page = LivePage(try client.get("/signin?next=/todos"))
        let answer = try client.post(
            try #require(page.actionPath("signIn")),
            form: ["csrf": try #require(page.csrfToken), "name": name, "password": password])
        guard answer.status == 303, answer.header("Location") == "/todos",
            let setCookie = answer.header("Set-Cookie"), setCookie.hasPrefix(SignIn.cookieName + "=")
        else {
            throw LiveClientError(description: "sign-in refused: \(answer.status) \(answer.header("Location") ?? "")")
        }
        return String(setCookie.prefix { $0 != ";" })
    }
}
