import Foundation
import HTTPServer
import MovieApp
import Reactive
import Screenplay
import ScreenplayTesting
import Testing

/// A store whose storage fails on every call, as a dead disk would.
private struct BrokenStore: MovieStore {
    func allMovies() throws -> [Movie] { throw StoreError(.unavailable, message: "disk I/O error (code 10)") }
    func movie(id: Int) throws -> Movie? { throw StoreError(.unavailable, message: "disk I/O error (code 10)") }
    func update(id: Int, with patch: MoviePatch) throws -> Movie {
        throw StoreError(.unavailable, message: "disk I/O error (code 10)")
    }
    func update(id: Int, with patch: MoviePatch, ifUnchangedSince expected: Movie) throws -> Movie {
        throw StoreError(.unavailable, message: "disk I/O error (code 10)")
    }
    func movies(matching query: MovieQuery, from offset: Int, count: Int) throws -> [Movie] {
        throw StoreError(.unavailable, message: "disk I/O error (code 10)")
    }
    func count(of query: MovieQuery, before movie: Movie?) throws -> Int {
        throw StoreError(.unavailable, message: "disk I/O error (code 10)")
    }
    func create(_ draft: MovieDraft) throws -> Movie {
        throw StoreError(.unavailable, message: "disk I/O error (code 10)")
    }
    func delete(id: Int) throws { throw StoreError(.unavailable, message: "disk I/O error (code 10)") }
    func catalogChanges() -> Observable<CatalogChange> { .never() }
    func signInKey() throws -> String { throw StoreError(.unavailable, message: "disk I/O error (code 10)") }
    func metricsExposition() -> String { "" }
    func close() {}
    func changes(of id: Int) -> Observable<Movie> { .never() }
}

/// The store failing under a running server: screens show their error state, the API answers 503, nothing
/// crashes and nothing is half written.
@Suite struct StoreFailureTests {
    private func serve(_ store: any MovieStore) throws -> MovieServer {
        let server = try MovieServer(options: serverOptions(), store: store)
        try server.start()
        return server
    }

    @Test func aFailingStoreGivesErrorScreensAnd503sAndTheServerKeepsServing() throws {
        let server = try serve(BrokenStore())
        defer { server.stop() }
        let client = LiveClient(port: server.port)
        let list = try client.get("/")
        #expect(list.status == 200)
        #expect(list.text.contains("The catalog cannot be read right now"))
        let detail = try client.get("/movies/1")
        #expect(detail.status < 500)
        for target in ["/api/movies", "/api/movies/1"] {
            #expect(try client.get(target).status == 503)
        }
        let patch = try client.request(
            "PATCH", "/api/movies/1", headers: ["Content-Type": "application/json"], body: Array(#"{"rating": 1}"#.utf8)
        )
        #expect(patch.status == 503)
        #expect(!patch.text.contains("disk I/O"))
        #expect(try client.get("/healthz").status == 200)
    }

    @Test func aReadOnlyDatabaseFileRefusesPatchesWith503AndStaysByteForByte() throws {
        try #require(ReadOnlyFile.isSupported)
        let folder = try TemporaryFolder()
        let path = folder.path("movies.sqlite")
        _ = try SQLiteMovieStore(path: path, seedingFrom: try folder.catalog(sampleMovies()))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        try ReadOnlyFile.protect(path)
        defer { ReadOnlyFile.release(path) }
        let server = try serve(try SQLiteMovieStore(path: path, readOnly: true))
        defer { server.stop() }
        let client = LiveClient(port: server.port)
        for index in 0..<20 {
            let patch = try client.request(
                "PATCH", "/api/movies/\(index % 3 + 1)", headers: ["Content-Type": "application/json"],
                body: Array(#"{"rating": 9.9, "title": "Never written"}"#.utf8))
            #expect(patch.status == 503)
        }
        let page = try client.get("/movies/2")
        #expect(page.status == 200)
        #expect(page.text.contains("Sample 2"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}
