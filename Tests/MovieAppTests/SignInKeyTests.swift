import Foundation
import MovieApp
import ScreenplayTesting
import TestSupport
import Testing

/// Without `--signin-secret`, sign-ins are signed with the store's key: they survive a restart on the same SQLite
/// file and work on every instance of one PostgreSQL database; the option still overrides the key.
@Suite struct SignInKeyTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    private func start(database: String, secret: String? = nil) throws -> MovieServer {
        var options = serverOptions()
        options.database = database
        options.catalog = try folder.catalog(sampleMovies(1...3))
        options.signInSecret = secret
        let server = try MovieServer(options: options)
        try server.start()
        return server
    }

    /// Signs in as alice on `server` and returns the `Cookie` header that carries the sign-in.
    private func signIn(on server: MovieServer) throws -> [String: String] {
        let client = LiveClient(port: server.port)
        let form = LivePage(try client.get("/signin?next=/movies/1/edit"))
        let answer = try client.post(
            try #require(form.actionPath("signIn")),
            form: ["csrf": try #require(form.csrfToken), "name": "alice", "password": "screenplay-alice"])
        let cookie = try #require(
            answer.headers.first { $0.name.lowercased() == "set-cookie" && $0.value.hasPrefix("screenplay_signin=") })
        return ["Cookie": String(cookie.value.split(separator: ";")[0])]
    }

    private func isSignedIn(_ cookie: [String: String], on server: MovieServer) throws -> Bool {
        let edit = try LiveClient(port: server.port).get("/movies/1/edit", headers: cookie)
        return edit.status == 200 && edit.text.contains(">alice</strong>")
    }

    @Test func aSignInSurvivesARestartOnTheSameSQLiteFile() throws {
        let database = folder.path("movies.sqlite")
        let first = try start(database: database)
        let cookie = try signIn(on: first)
        #expect(try isSignedIn(cookie, on: first))
        first.stop()
        let restarted = try start(database: database)
        defer { restarted.stop() }
        #expect(try isSignedIn(cookie, on: restarted))
    }

    @Test func anotherDatabaseOrAGivenSecretSignsWithAnotherKey() throws {
        let first = try start(database: folder.path("movies.sqlite"))
        let cookie = try signIn(on: first)
        first.stop()
        let elsewhere = try start(database: folder.path("other.sqlite"))
        #expect(try !isSignedIn(cookie, on: elsewhere))
        elsewhere.stop()
        let overridden = try start(
            database: folder.path("movies.sqlite"), secret: "a-secret-of-thirty-two-characters-or-more")
        defer { overridden.stop() }
        #expect(try !isSignedIn(cookie, on: overridden))
    }

    @Test(.enabled(if: PostgreSQLTestServer.isAvailable))
    func instancesOnOnePostgreSQLDatabaseShareTheKeyAcrossRestarts() throws {
        let database = try PostgreSQLTestServer.makeDatabase()
        let first = try start(database: database)
        let second = try start(database: database)
        let cookie = try signIn(on: first)
        #expect(try isSignedIn(cookie, on: second))
        first.stop()
        second.stop()
        let restarted = try start(database: database)
        defer { restarted.stop() }
        #expect(try isSignedIn(cookie, on: restarted))
    }
}
