import Foundation
import HTTPServer
import MovieApp
import Screenplay
import ScreenplayTesting
import Testing

/// Stored text full of markup, quotes and scripts renders inert wherever it appears: the page, its title, the
/// patches and title events on the stream, and the API.
@Suite struct HostileDataRenderingTests {
    static let hostileTitle = #"</title><script>alert("t")</script>'"&amp;"#
    static let hostileOverview = #"<img src=x onerror="alert(1)">' onmouseover='alert(2)' &lt;b&gt; ]]> <!-- -->"#
    static let hostileTip = "<svg/onload=alert(3)>\u{2028}\u{202E}javascript:alert(4)"

    /// A movie server over a temporary SQLite file, with the repository's templates.
    private final class LiveMovies {
        let folder: TemporaryFolder
        let server: MovieServer

        init() throws {
            folder = try TemporaryFolder()
            var options = serverOptions(databaseIn: folder)
            options.catalog = try folder.catalog(sampleMovies())
            server = try MovieServer(options: options)
            try server.start()
        }

        deinit { server.stop() }

        /// The browser the test drives.
        private let browser = LiveClient(port: 0)
        var client: LiveClient { LiveClient(port: server.port, sameBrowserAs: browser) }

        func patch(_ id: Int, _ json: String) throws -> LiveResponse {
            try client.request(
                "PATCH", "/api/movies/\(id)", headers: ["Content-Type": "application/json"], body: Array(json.utf8))
        }
    }

    private static var hostilePatch: String {
        let object: [String: Any] = [
            "title": hostileTitle, "overview": hostileOverview, "tips": [hostileTip], "genres": ["<b>Drama</b>"],
        ]
        let data = try! JSONSerialization.data(withJSONObject: object)
        return String(decoding: data, as: UTF8.self)
    }

    /// Markup that would run or break out of its element if it reached the page unescaped.
    private static let liveMarkup = [
        "<script>alert", "<img src=x", "<svg/onload", "</title><script", "onerror=\"alert", "<b>Drama",
        "' onmouseover='",
    ]

    private func expectInert(_ text: String, _ place: String) {
        for markup in Self.liveMarkup {
            #expect(!text.contains(markup), "\(place) contains \(markup)")
        }
    }

    @Test func storedMarkupRendersInertInThePageAndItsTitle() throws {
        let movies = try LiveMovies()
        #expect(try movies.patch(2, Self.hostilePatch).status == 200)
        let page = try movies.client.get("/movies/2")
        #expect(page.status == 200)
        expectInert(page.text, "page")
        #expect(page.text.contains("&lt;script&gt;alert"))
        #expect(page.text.contains("&lt;img src=x"))
        let list = try movies.client.get("/")
        #expect(list.status == 200)
        expectInert(list.text, "list")
    }

    @Test func storedMarkupArrivesInertInPatchesAndTitleEvents() throws {
        let movies = try LiveMovies()
        let page = LivePage(try movies.client.get("/movies/2"))
        let events = try movies.client.openEvents(for: page)
        defer { events.close() }
        #expect(try movies.patch(2, Self.hostilePatch).status == 200)
        var seen: [ServerSentEvent] = []
        while let event = try events.next(), seen.count < 10 {
            seen.append(event)
            if seen.contains(where: { $0.event == "patch" && $0.data.contains("alert(3)") }),
                seen.contains(where: { $0.event == "title" })
            {
                break
            }
        }
        let patch = try #require(seen.first { $0.event == "patch" && $0.data.contains("alert(3)") })
        expectInert(patch.data, "patch")
        let title = try #require(seen.first { $0.event == "title" })
        // The client sets `document.title` from this text, which never parses it as markup; it still carries no
        // line break that could end the event early.
        #expect(title.data.hasPrefix(Self.hostileTitle))
        #expect(!title.data.contains("\n"))
    }

    @Test func storedMarkupStaysDataInTheAPI() throws {
        let movies = try LiveMovies()
        #expect(try movies.patch(2, Self.hostilePatch).status == 200)
        let response = try movies.client.get("/api/movies/2")
        #expect(response.header("Content-Type") == "application/json")
        let movie = try JSONDecoder().decode(Movie.self, from: Data(response.body))
        #expect(movie.title == Self.hostileTitle)
        #expect(movie.overview == Self.hostileOverview)
        #expect(movie.tips == [Self.hostileTip])
    }
}
