import Foundation
import HTTPServer
import MovieApp
import Reactive
import Testing

/// A live server on an ephemeral port answering the API over a real SQLite file.
final class APIServer {
    let folder: TemporaryFolder
    let databasePath: String
    let store: any MovieStore
    let server: HTTPServer

    init(store makeStore: ((String, String) throws -> any MovieStore)? = nil) throws {
        folder = try TemporaryFolder()
        databasePath = folder.path("data/movies.sqlite")
        let catalog = try folder.catalog(sampleMovies())
        store = try makeStore?(databasePath, catalog) ?? SQLiteMovieStore(path: databasePath, seedingFrom: catalog)
        let router = Router()
        MovieAPI(store: store).register(on: router)
        // Larger than MoviePatch's own limit, so the API's answer to a large body is tested.
        server = HTTPServer(configuration: ServerConfiguration(port: 0, maxBodySize: 1 << 20), router: router)
        try server.start()
    }

    deinit {
        server.stop()
    }

    var port: Int { server.port }

    /// The movies as a fresh connection to the database file reads them.
    func moviesOnDisk() throws -> [Movie] {
        try SQLiteMovieStore(path: databasePath).allMovies()
    }

    func patch(_ id: String, _ body: [UInt8], contentType: String? = "application/merge-patch+json") throws
        -> HTTPTestResponse
    {
        try send(
            "PATCH", "/api/movies/\(id)", port: port, headers: contentType.map { ["Content-Type": $0] } ?? [:],
            body: body)
    }
}

/// A store whose storage has failed: every call throws.
private struct FailingStore: MovieStore {
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

@Suite("MovieAPI over HTTP")
struct MovieAPITests {
    @Test func listsEveryMovie() throws {
        let api = try APIServer()
        let response = try send("GET", "/api/movies", port: api.port)
        #expect(response.status == 200)
        #expect(response[header: "content-type"] == "application/json")
        #expect(response[header: "cache-control"] == "no-store")
        #expect(try response.decode([String: [Movie]].self) == ["movies": sampleMovies()])
    }

    @Test func showsOneMovie() throws {
        let api = try APIServer()
        let response = try send("GET", "/api/movies/2", port: api.port)
        #expect(response.status == 200)
        #expect(try response.decode(Movie.self) == sampleMovies()[1])
    }

    @Test(
        "answers 404 for an id that names no movie",
        arguments: ["99", "0", "-1", "abc", "2.0", "%20", "99999999999999999999"])
    func answersNotFoundForUnknownIDs(_ id: String) throws {
        let api = try APIServer()
        let response = try send("GET", "/api/movies/\(id)", port: api.port)
        #expect(response.status == 404)
        #expect(response.errorMessage?.hasPrefix("no movie has id") == true)
        let patch = try api.patch(id, Array(#"{"rating": 5}"#.utf8))
        #expect(patch.status == 404)
        #expect(try api.moviesOnDisk() == sampleMovies())
    }

    @Test func commitsAValidPatchAndAnswersWithTheMovie() throws {
        let api = try APIServer()
        let response = try api.patch("3", Array(#"{"rating": 8.46, "tips": ["Watch it twice."]}"#.utf8))
        var expected = sampleMovies()[2]
        expected.rating = 8.5
        expected.tips = ["Watch it twice."]
        #expect(response.status == 200)
        #expect(try response.decode(Movie.self) == expected)
        #expect(try api.moviesOnDisk()[2] == expected)
        #expect(try send("GET", "/api/movies/3", port: api.port).decode(Movie.self) == expected)
    }

    @Test(
        "accepts JSON content types",
        arguments: ["application/json", "application/merge-patch+json", "Application/JSON; charset=utf-8"])
    func acceptsJSONContentTypes(_ contentType: String) throws {
        let api = try APIServer()
        let response = try api.patch("1", Array(#"{"year": 2001}"#.utf8), contentType: contentType)
        #expect(response.status == 200)
        #expect(try api.moviesOnDisk()[0].year == 2001)
    }

    @Test(
        "answers 415 for a body that is not JSON",
        arguments: [nil, "text/plain", "application/x-www-form-urlencoded", "application/jsonx", "text/json"])
    func refusesOtherContentTypes(_ contentType: String?) throws {
        let api = try APIServer()
        let response = try api.patch("1", Array(#"{"year": 2001}"#.utf8), contentType: contentType)
        #expect(response.status == 415)
        #expect(response.errorMessage?.contains("must be JSON") == true)
        #expect(try api.moviesOnDisk() == sampleMovies())
    }

    @Test("answers 400 naming the field and changes nothing", arguments: PatchRejection.all)
    func refusesInvalidPatches(_ rejection: PatchRejection) throws {
        let api = try APIServer()
        let response = try api.patch("2", rejection.body)
        #expect(response.status == 400)
        #expect(response[header: "content-type"] == "application/json")
        #expect(response.errorMessage == rejection.message)
        #expect(try api.moviesOnDisk() == sampleMovies())
    }

    @Test func answers503WhenTheStoreCannotWrite() throws {
        let api = try APIServer { path, catalog in
            _ = try SQLiteMovieStore(path: path, seedingFrom: catalog)
            return try SQLiteMovieStore(path: path, readOnly: true)
        }
        let response = try api.patch("1", Array(#"{"rating": 7}"#.utf8))
        #expect(response.status == 503)
        #expect(response.errorMessage == "the movie store is unavailable, try again later")
        #expect(try send("GET", "/api/movies/1", port: api.port).status == 200)
        #expect(try api.moviesOnDisk() == sampleMovies())
    }

    @Test func answers503WhenTheStoreCannotRead() throws {
        let api = try APIServer { _, _ in FailingStore() }
        for target in ["/api/movies", "/api/movies/1"] {
            let response = try send("GET", target, port: api.port)
            #expect(response.status == 503)
            #expect(response.errorMessage == "the movie store is unavailable, try again later")
        }
    }

    @Test func tellsFollowersOfTheMovieAfterAPatch() throws {
        let api = try APIServer()
        let seen = Recorder<Movie>()
        let subscription = api.store.changes(of: 2).subscribe(onNext: seen.record)
        defer { subscription.dispose() }
        let response = try api.patch("2", Array(#"{"rating": 9.7}"#.utf8))
        #expect(response.status == 200)
        #expect(seen.wait(for: 1) == [try response.decode(Movie.self)])
    }

    @Test func answers405ForOtherMethods() throws {
        let api = try APIServer()
        #expect(try send("PUT", "/api/movies/1", port: api.port).status == 405)
        #expect(try send("DELETE", "/api/movies", port: api.port).status == 405)
        #expect(try send("PUT", "/api/movies", port: api.port).status == 405)
        #expect(try api.moviesOnDisk() == sampleMovies())
    }
}
