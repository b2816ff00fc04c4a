import Foundation
import MovieApp
import ScreenplayTesting
import Testing

/// The functional side of the fan-out benchmark (`Benchmarks/screens`): many detail screens of one movie, each with
/// its event stream, all see one rating change. No timing: the benchmark measures speed.
@Suite("Fan-out of a store change to open screens")
struct FanOutTests {
    /// The repository's top folder, which holds `Templates/`, `Public/` and `Catalog/`.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test func everyOpenDetailScreenReceivesThePatchCarryingTheNewRating() throws {
        let folder = try TemporaryFolder()
        var options = MovieServerOptions()
        options.root = Self.root
        options.port = 0
        options.database = folder.path("movies.sqlite")
        let server = try MovieServer(options: options)
        try server.start()
        defer { server.stop() }
        let client = LiveClient(port: server.port)

        let screens = 50
        var streams: [LiveEventStream] = []
        for _ in 0..<screens {
            let page = LivePage(try client.get("/movies/1"))
            streams.append(try client.openEvents(for: page))
        }
        #expect(server.application.openSessionCount == screens)

        let body = Array(#"{"rating": 2.5}"#.utf8)
        let response = try client.request(
            "PATCH", "/api/movies/1", headers: ["Content-Type": "application/merge-patch+json"], body: body)
        #expect(response.status == 200)

        var received = 0
        for stream in streams {
            let patch = try stream.next { $0.event == "patch" && $0.data.contains(">2.5</span>") }
            if patch != nil { received += 1 }
        }
        #expect(received == screens)
    }

    @Test func theSessionCapAndConnectionLimitComeFromTheCommandLine() throws {
        let options = try MovieServerOptions.parse(
            ["--max-sessions", "200000", "--max-connections=30000"], environment: ["MAX_SESSIONS": "5"])
        #expect(options.maxSessions == 200_000)
        #expect(options.maxConnections == 30_000)
        #expect(try MovieServerOptions.parse([], environment: ["MAX_SESSIONS": "5"]).maxSessions == 5)
        #expect(throws: MovieServerOptions.UsageError.self) { try MovieServerOptions.parse(["--max-sessions", "0"]) }
    }
}
