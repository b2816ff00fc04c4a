import Foundation
import MovieApp
import ScreenplayTesting
import Testing

/// The whole app on a real server: a PATCH through the API reaches the open pages of that movie.
@Suite("Live updates")
struct LiveUpdateTests {
    @Test func patchThroughTheAPIReachesTheOpenDetailPageOfThatMovieOnly() throws {
        let folder = try TemporaryFolder()
        let server = try startServer(databaseIn: folder)
        defer { server.stop() }
        let client = LiveClient(port: server.port)

        let first = LivePage(try client.get("/movies/1"))
        let second = LivePage(try client.get("/movies/2"))
        let firstEvents = try client.openEvents(try #require(first.eventsPath))
        defer { firstEvents.close() }
        let secondEvents = try client.openEvents(try #require(second.eventsPath))
        defer { secondEvents.close() }

        let patched = try client.request(
            "PATCH", "/api/movies/1", headers: ["Content-Type": "application/merge-patch+json"],
            body: Array(#"{"rating": 9.1}"#.utf8))
        #expect(patched.status == 200)
        let patch = try #require(try firstEvents.next { $0.event == "patch" })
        #expect(patch.data.contains(">9.1<"))
        #expect(patch.data.count < 400)

        // Movie 2's page gets movie 2's change as its first patch: movie 1's change never reached it.
        let other = try client.request(
            "PATCH", "/api/movies/2", headers: ["Content-Type": "application/merge-patch+json"],
            body: Array(#"{"rating": 1.2}"#.utf8))
        #expect(other.status == 200)
        let secondPatch = try #require(try secondEvents.next { $0.event == "patch" })
        #expect(secondPatch.data.contains(">1.2<"))
        #expect(!secondPatch.data.contains("9.1"))
    }
}
