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
        let firstEvents = try client.openEvents(for: first)
        defer { firstEvents.close() }
        let secondEvents = try client.openEvents(for: second)
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

    @Test func aPageNoStreamWatchesSkipsEveryChangeAndShowsTheLatestOnceAttached() throws {
        let folder = try TemporaryFolder()
        let server = try startServer(databaseIn: folder)
        defer { server.stop() }
        let client = LiveClient(port: server.port)
        let detail = LivePage(try client.get("/movies/3"))
        let list = LivePage(try client.get("/"))
        for rating in ["2.1", "2.2", "2.3"] {
            let patched = try client.request(
                "PATCH", "/api/movies/3", headers: ["Content-Type": "application/merge-patch+json"],
                body: Array(#"{"rating": \#(rating)}"#.utf8))
            #expect(patched.status == 200)
        }
        Thread.sleep(forTimeInterval: 0.2)
        // Nothing was rendered for the unwatched pages: no patch counted.
        #expect(try client.get("/metrics").text.contains("screenplay_patches_sent_total 0\n"))
        let shared = try client.openSharedStream()
        defer { shared.close() }
        #expect(try client.attach(detail, to: shared.id).status == 204)
        #expect(try client.attach(list, to: shared.id).status == 204)
        var caughtUp: [String: ServerSentEvent] = [:]
        while caughtUp.count < 2, let event = try shared.events.next() {
            if event.event == "patch" || event.event == "reset", let screen = event.screen { caughtUp[screen] = event }
        }
        // The live screens are built when the pages attach, from the current data: each page's render is out of date,
        // so its first event brings it the latest (one reset: the page is swapped for the current render).
        for page in [detail, list] {
            let caught = try #require(caughtUp[page.screenID!])
            #expect(caught.number == 1, "one event, the first of the screen")
            #expect(caught.data.contains("2.3"))
            #expect(!caught.data.contains("2.2"))
        }
    }
}
