import Foundation
import MovieApp
import ScreenplayTesting
import Testing

/// The whole app on a real server: movies created and deleted through the API reach the open pages.
@Suite("Live catalog changes")
struct LiveCatalogTests {
    private static let created = #"""
        {"title": "Aaa First Of All", "year": 2024, "runtimeMinutes": 99, "rating": 6.5, "overview": "New."}
        """#

    @Test func aCreatedMovieAppearsInAnOpenListAndADeletedOneVanishes() throws {
        let folder = try TemporaryFolder()
        let server = try startServer(databaseIn: folder)
        defer { server.stop() }
        let client = LiveClient(port: server.port)
        let list = LivePage(try client.get("/"))
        let events = try client.openEvents(for: list)
        defer { events.close() }

        let posted = try client.request(
            "POST", "/api/movies", headers: ["Content-Type": "application/json"], body: Array(Self.created.utf8))
        #expect(posted.status == 201)
        let movie = try JSONDecoder().decode(Movie.self, from: Data(posted.body))
        let inserted = try #require(try events.next { $0.event == "patch" && $0.data.contains("Aaa First Of All") })
        #expect(inserted.data.contains("/movies/\(movie.id)"))

        #expect(try client.request("DELETE", "/api/movies/\(movie.id)").status == 204)
        let removed = try #require(try events.next { $0.event == "patch" })
        #expect(removed.data.hasPrefix(#"[["remove","#))
        #expect(!removed.data.contains("Aaa First Of All"))
        #expect(!(try client.get("/").text.contains("Aaa First Of All")))
    }

    /// A list of 300 movies shows a window of 100: it reads those rows only, and a change to a movie outside them
    /// sends nothing; a change to one in view is one small patch.
    @Test func aLongListReadsItsWindowAndSendsNothingForAChangeOutOfView() throws {
        let folder = try TemporaryFolder()
        var options = serverOptions(databaseIn: folder)
        options.catalog = try folder.catalog(
            sampleMovies(1...300).map { movie in
                var movie = movie
                movie.rating = 5
                movie.year = 2000
                return movie
            })
        let server = try MovieServer(options: options)
        try server.start()
        defer { server.stop() }
        let client = LiveClient(port: server.port)
        let page = try client.get("/")
        // "Sample 1", "Sample 10", "Sample 100", … by code point: "Sample 99" comes last, far out of the window.
        #expect(page.text.components(separatedBy: "class=\"movie-card\"").count - 1 == 100)
        #expect(page.text.contains(#"data-spacer="bottom" data-rows="200""#))
        #expect(!page.text.contains("Sample 99<"))
        let list = LivePage(page)
        let events = try client.openEvents(for: list)
        defer { events.close() }
        let hidden = try client.request(
            "PATCH", "/api/movies/99", headers: ["Content-Type": "application/json"],
            body: Array(#"{"rating": 0.3}"#.utf8))
        #expect(hidden.status == 200)
        let shown = try client.request(
            "PATCH", "/api/movies/1", headers: ["Content-Type": "application/json"],
            body: Array(#"{"rating": 0.7}"#.utf8))
        #expect(shown.status == 200)
        // The first patch is the visible movie's, alone and small: the hidden one's change sent nothing.
        let patch = try #require(try events.next { $0.event == "patch" })
        #expect(patch.data.contains("0.7"))
        #expect(!patch.data.contains("0.3"))
        #expect(patch.data.utf8.count < 1024)
    }

    @Test func anOpenDetailPageOfADeletedMovieSaysItIsGone() throws {
        let folder = try TemporaryFolder()
        let server = try startServer(databaseIn: folder)
        defer { server.stop() }
        let client = LiveClient(port: server.port)
        let detail = LivePage(try client.get("/movies/2"))
        let other = LivePage(try client.get("/movies/3"))
        let events = try client.openEvents(for: detail)
        defer { events.close() }
        let otherEvents = try client.openEvents(for: other)
        defer { otherEvents.close() }

        #expect(try client.request("DELETE", "/api/movies/2").status == 204)
        let gone = try #require(try events.next { $0.event == "patch" })
        #expect(gone.data.contains("This movie is no longer in the catalog."))
        // Movie 3's page heard nothing of it: its first patch is its own change.
        let patched = try client.request(
            "PATCH", "/api/movies/3", headers: ["Content-Type": "application/json"],
            body: Array(#"{"rating": 1.2}"#.utf8))
        #expect(patched.status == 200)
        let own = try #require(try otherEvents.next { $0.event == "patch" })
        #expect(own.data.contains(">1.2<"))
        #expect(!own.data.contains("no longer"))
    }
}
