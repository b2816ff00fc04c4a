import Foundation
import MovieApp
import ScreenplayTesting
import Testing

/// The app's screen routes on a real server: what each address answers.
@Suite("Screen routes")
struct ScreenRoutesTests {
    /// Serves the app from the repository's templates over `store`, or a fresh SQLite store when nil.
    private func withServer(store: (any MovieStore)? = nil, _ body: (LiveClient) throws -> Void) throws {
        let folder = try TemporaryFolder()
        let options = serverOptions(databaseIn: folder)
        let server =
            try store.map { try MovieServer(options: options, store: $0) } ?? MovieServer(options: options)
        try server.start()
        defer { server.stop() }
        try body(LiveClient(port: server.port))
    }

    @Test func listAnswersAtTheRootAndAtMoviesWithEveryMovie() throws {
        try withServer { client in
            for path in ["/", "/movies"] {
                let page = try client.get(path)
                #expect(page.status == 200)
                #expect(page.text.components(separatedBy: "class=\"movie-card\"").count - 1 == 22)
            }
        }
    }

    /// Every page names its icon, so browsers do not ask for `/favicon.ico` (a 404 on every page), and it is served.
    @Test func pagesNameTheirIconAndItIsServed() throws {
        try withServer { client in
            for path in ["/", "/movies/1", "/signin?next=/movies/1/edit", "/movies/999"] {
                #expect(try client.get(path).text.contains("<link rel=\"icon\" href=\"/public/images/icon.svg\""))
            }
            let icon = try client.get("/public/images/icon.svg")
            #expect(icon.status == 200)
            #expect(icon.header("Content-Type")?.hasPrefix("image/svg+xml") == true)
        }
    }

    @Test func unknownMovieIsANotFoundScreenWithAWayBack() throws {
        try withServer { client in
            for path in ["/movies/999", "/movies/abc", "/movies/0"] {
                let page = try client.get(path)
                #expect(page.status == 404, "\(path)")
                #expect(page.text.contains("class=\"not-found\""), "\(path)")
                #expect(LivePage(page).actionPath("back") != nil, "\(path)")
            }
        }
    }

    @Test func failingStoreShowsErrorStatesNotACrash() throws {
        try withServer(store: FailingMovieStore()) { client in
            let detail = try client.get("/movies/1")
            #expect(detail.status == 200)
            #expect(detail.text.contains("The catalog cannot be read right now. Try Refresh."))
            let list = try client.get("/")
            #expect(list.status == 200)
            #expect(list.text.contains("The catalog cannot be read right now."))
        }
    }

    /// Reading needs no account; editing needs one of the demo's (`Catalog/accounts.txt`), and every page says who is
    /// signed in.
    @Test func editingNeedsADemoAccountAndPagesSayWhoIsSignedIn() throws {
        try withServer { client in
            #expect(try client.get("/movies/1").status == 200)
            let refused = try client.get("/movies/1/edit")
            #expect(refused.status == 303)
            #expect(refused.header("Location") == "/signin?next=/movies/1/edit")
            let form = LivePage(try client.get("/signin?next=/movies/1/edit"))
            let answer = try client.post(
                try #require(form.actionPath("signIn")),
                form: ["csrf": try #require(form.csrfToken), "name": "alice", "password": "screenplay-alice"])
            #expect(answer.header("Location") == "/movies/1/edit")
            let cookie = try #require(
                answer.headers.first {
                    $0.name.lowercased() == "set-cookie" && $0.value.hasPrefix("screenplay_signin=")
                })
            let signedIn = ["Cookie": String(cookie.value.split(separator: ";")[0])]
            let edit = try client.get("/movies/1/edit", headers: signedIn)
            #expect(edit.status == 200)
            #expect(edit.text.contains(">alice</strong>"))
            #expect(try client.get("/movies/1", headers: signedIn).text.contains(">alice</strong>"))
            // Another browser, without the cookie.
            #expect(try LiveClient(port: client.port).get("/movies/1").text.contains(#"href="/signin">Sign in</a>"#))
        }
    }

    /// `HEAD *` once reached the list screen, which cannot live at `*`, and was answered 500. A target that is not a
    /// path reaches no screen: 400, and `OPTIONS *` says what the server allows.
    @Test func aRequestTargetThatIsNotAPathReachesNoScreen() throws {
        try withServer { client in
            for (request, status) in [
                ("HEAD * HTTP/1.1", 400), ("GET * HTTP/1.1", 400), ("GET http://localhost/ HTTP/1.1", 400),
                ("OPTIONS * HTTP/1.1", 204),
            ] {
                let connection = try LiveConnection(port: client.port)
                try connection.send("\(request)\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                let response = try connection.readResponse(hasBody: !request.hasPrefix("HEAD") && status != 204)
                #expect(response.status == status, "\(request)")
            }
            #expect(try client.get("/").status == 200)
        }
    }
}
