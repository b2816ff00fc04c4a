import Foundation
import MovieApp
import ScreenplayTesting
import TestSupport
import Testing

/// A detail page's render follows nothing: the page is written and its screen ended in one turn, so the driver reads
/// the movie and leaves its change feed alone; the live screen its stream builds follows the movie.
@Suite struct DetailRenderTests {
    @Test func aRenderFollowsNoChangeFeedAndTheLiveScreenFollowsTheMovie() throws {
        let folder = try TemporaryFolder()
        var options = serverOptions(databaseIn: folder)
        options.catalog = try folder.catalog(sampleMovies(1...10))
        let store = CountingMovieStore(
            try SQLiteMovieStore(path: options.databasePath, seedingFrom: options.catalogPath))
        let server = try MovieServer(options: options, store: store)
        try server.start()
        defer { server.stop() }
        let client = LiveClient(port: server.port)

        let page = LivePage(try client.get("/movies/3"))
        #expect(page.html.contains("Sample 3"))
        #expect(store.followed.withLock { $0 }.isEmpty)

        let events = try client.openEvents(for: page)
        defer { events.close() }
        #expect(eventually { store.followed.withLock { $0 } == [3] })
        let patched = try client.request(
            "PATCH", "/api/movies/3", headers: ["Content-Type": "application/merge-patch+json"],
            body: Array(#"{"rating": 9.1}"#.utf8))
        #expect(patched.status == 200)
        let patch = try #require(try events.next { $0.event == "patch" })
        #expect(patch.data.contains(">9.1<"))
    }
}
