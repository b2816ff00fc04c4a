import Foundation
import MovieApp
import ScreenplayTesting
import TestSupport
import Testing

/// A detail page's render follows nothing: the page is written and its screen ended in one turn, so the driver reads
/// the movie and leaves its change feed alone; the live screen its stream builds follows the movie.
@Suite struct DetailRenderTests {
    /// The server on ten sample movies, over a store that counts the feeds screens ask for; the folder holds its
    /// database (keep it for the test's length).
    private static func startServer() throws -> (MovieServer, CountingMovieStore, TemporaryFolder) {
        let folder = try TemporaryFolder()
        var options = serverOptions(databaseIn: folder)
        options.catalog = try folder.catalog(sampleMovies(1...10))
        let store = CountingMovieStore(
            try SQLiteMovieStore(path: options.databasePath, seedingFrom: options.catalogPath))
        let server = try MovieServer(options: options, store: store)
        try server.start()
        return (server, store, folder)
    }

    @Test func aRenderFollowsNoChangeFeedAndTheLiveScreenFollowsTheMovie() throws {
        let (server, store, folder) = try Self.startServer()
        defer { withExtendedLifetime(folder) { server.stop() } }
        let client = LiveClient(port: server.port)

        let page = LivePage(try client.get("/movies/3"))
        #expect(page.html.contains("Sample 3"))
        #expect(store.followed.withLock { $0 }.isEmpty)

        let catalogFollowers = store.catalogFollowed.withLock { $0 }
        let events = try client.openEvents(for: page)
        defer { events.close() }
        #expect(eventually { store.followed.withLock { $0 } == [3] })
        let patched = try client.request(
            "PATCH", "/api/movies/3", headers: ["Content-Type": "application/merge-patch+json"],
            body: Array(#"{"rating": 9.1}"#.utf8))
        #expect(patched.status == 200)
        let patch = try #require(try events.next { $0.event == "patch" })
        #expect(patch.data.contains(">9.1<"))
        // The live screen follows its movie's changes and its deletion through that one feed, not the catalog's.
        #expect(try client.request("DELETE", "/api/movies/3").status == 204)
        let gone = try #require(try events.next { $0.event == "patch" })
        #expect(gone.data.contains("This movie is no longer in the catalog."))
        #expect(store.followed.withLock { $0 } == [3])
        #expect(store.catalogFollowed.withLock { $0 } == catalogFollowers)
    }

    /// A detail page reads its movie and the "More like this" strip's movies from the store in one read (one check
    /// of the store's cache a page), and shows both.
    @Test func aDetailPageReadsTheStoreOnce() throws {
        let (server, store, folder) = try Self.startServer()
        defer { withExtendedLifetime(folder) { server.stop() } }
        let client = LiveClient(port: server.port)
        let single = store.singleReads.withLock { $0 }
        let batches = store.batchReads.withLock { $0 }

        let page = LivePage(try client.get("/movies/3"))
        #expect(page.html.contains("Sample 3"))
        #expect(page.html.contains("href=\"/movies/4\""))
        #expect(store.singleReads.withLock { $0 } == single)
        #expect(store.batchReads.withLock { $0 } == batches + 1)
    }

    /// The list's and the edit form's renders follow nothing either; their live screens follow the catalog.
    @Test func listAndEditRendersFollowNoFeedAndTheirLiveScreensDo() throws {
        let (server, store, folder) = try Self.startServer()
        defer { withExtendedLifetime(folder) { server.stop() } }
        let client = LiveClient(port: server.port)
        let form = LivePage(try client.get("/signin?next=/movies/2/edit"))
        _ = try client.post(
            try #require(form.actionPath("signIn")),
            form: ["csrf": try #require(form.csrfToken), "name": "alice", "password": "screenplay-alice"])
        let before = store.catalogFollowed.withLock { $0 }

        let list = LivePage(try client.get("/"))
        let edit = LivePage(try client.get("/movies/2/edit"))
        #expect(list.html.contains("Sample 2") && edit.html.contains("Sample 2"))
        #expect(store.catalogFollowed.withLock { $0 } == before)

        let events = try client.openEvents(for: list)
        defer { events.close() }
        #expect(eventually { store.catalogFollowed.withLock { $0 } == before + 1 })
        let editEvents = try client.openEvents(for: edit)
        defer { editEvents.close() }
        #expect(eventually { store.catalogFollowed.withLock { $0 } == before + 2 })
        // The live list follows the catalog: a rating change in its window is a patch.
        let patched = try client.request(
            "PATCH", "/api/movies/2", headers: ["Content-Type": "application/merge-patch+json"],
            body: Array(#"{"rating": 9.3}"#.utf8))
        #expect(patched.status == 200)
        #expect(try events.next { $0.event == "patch" && $0.data.contains("9.3") } != nil)
    }
}
