import Foundation
import ScreenplayTesting
import Testing

@testable import MovieApp

/// `--api-token`: the JSON API requires that bearer token; without it the API stays open.
@Suite struct APITokenTests {
    @Test func withATokenTheAPINeedsItAndChangesNothingWithout() throws {
        let folder = try TemporaryFolder()
        var options = serverOptions(databaseIn: folder)
        options.apiToken = "a-token-for-scripts-0123"
        let server = try MovieServer(options: options)
        try server.start()
        defer { server.stop() }
        let client = LiveClient(port: server.port)
        #expect(try client.get("/api/movies").status == 401)
        let patch = try client.request(
            "PATCH", "/api/movies/1", headers: ["Content-Type": "application/json", "Authorization": "Bearer nope"],
            body: Array(#"{"rating": 1.0}"#.utf8))
        #expect(patch.status == 401)
        #expect(try server.store.movie(id: 1)?.rating != 1.0)
        let allowed = try client.request(
            "PATCH", "/api/movies/1",
            headers: ["Content-Type": "application/json", "Authorization": "Bearer a-token-for-scripts-0123"],
            body: Array(#"{"rating": 1.0}"#.utf8))
        #expect(allowed.status == 200)
        #expect(try server.store.movie(id: 1)?.rating == 1.0)
        // The screens are not behind the API's token.
        #expect(try client.get("/movies/1").status == 200)
    }

    @Test func theTokenComesFromTheCommandLineOrTheEnvironmentAndIsLongEnough() throws {
        #expect(
            try MovieServerOptions.parse([], environment: ["API_TOKEN": "from-the-environment"]).apiToken
                == "from-the-environment")
        #expect(
            try MovieServerOptions.parse(["--api-token", "from-the-command-line"]).apiToken == "from-the-command-line")
        #expect(try MovieServerOptions.parse([]).apiToken == nil)
        #expect(throws: MovieServerOptions.UsageError.self) { try MovieServerOptions.parse(["--api-token", "short"]) }
    }
}
