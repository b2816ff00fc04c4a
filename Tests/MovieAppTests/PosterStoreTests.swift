import Foundation
import Reactive
import Screenplay
import Synchronization
import TestSupport
import Testing

@testable import MovieApp

/// Both stores keep a poster's bytes with the movie: the movie names it, the bytes read back exactly, the change
/// reaches observers (on PostgreSQL, another instance's too), and a database made before posters takes them.
@Suite struct PosterStoreTests {
    static let poster = StoredPoster(
        key: "AbCdEfGhIjKlMnOpQrStUv", kind: .webp,
        bytes: Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBP".utf8) + (0..<70_000).map { UInt8($0 % 256) })

    private func check(_ store: any MovieStore & MoviePosters, observer other: (any MovieStore)? = nil) throws {
        let heard = Mutex<[String?]>([])
        let subscription = (other ?? store).changes(of: 2).subscribe(onNext: { movie in
            heard.withLock { $0.append(movie.posterUrl) }
        })
        defer { subscription.dispose() }
        let movie = try store.setPoster(id: 2, Self.poster)
        #expect(movie.posterUrl == "/posters/AbCdEfGhIjKlMnOpQrStUv")
        #expect(try store.movie(id: 2)?.posterUrl == movie.posterUrl)
        #expect(try store.poster(key: Self.poster.key) == Self.poster)
        #expect(try store.poster(key: "ZZZZZZZZZZZZZZZZZZZZZZ") == nil)
        #expect(eventually { heard.withLock { $0.contains("/posters/AbCdEfGhIjKlMnOpQrStUv") } })
        #expect(throws: StoreError.self) { try store.setPoster(id: 999, Self.poster) }
        // A new poster replaces the bytes of the one before; deleting the movie removes its poster's.
        var second = Self.poster
        second.key = "SeCoNdPoStErKeY0123456"
        second.kind = .png
        second.bytes = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3, 4]
        #expect(try store.setPoster(id: 2, second).posterUrl == "/posters/SeCoNdPoStErKeY0123456")
        #expect(try store.poster(key: Self.poster.key) == nil)
        #expect(try store.poster(key: second.key) == second)
        // Another movie's poster is not touched by it.
        var third = second
        third.key = "ThIrDpOsTeRkEy01234567"
        _ = try store.setPoster(id: 1, third)
        try store.delete(id: 2)
        #expect(try store.poster(key: second.key) == nil)
        #expect(try store.poster(key: third.key) == third)
    }

    @Test func sqliteKeepsAPosterEvenInADatabaseMadeBeforePosters() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("old.sqlite")
        // A database as an earlier version made it: no movie_posters table.
        do {
            let old = try SQLiteMovieStore(path: path, seedingFrom: try folder.catalog(sampleMovies()))
            let connection = try SQLiteConnection(path: path, readOnly: false)
            try connection.execute("DROP TABLE movie_posters")
            old.close()
        }
        let store = try SQLiteMovieStore(path: path)
        try check(store)
        // A poster kept for a movie deleted before deletions removed posters goes when the store opens.
        store.close()
        do {
            let connection = try SQLiteConnection(path: path, readOnly: false)
            try connection.execute("INSERT INTO movie_posters VALUES ('OrPhAnPoStErKeY0123456', 2, 'png', x'00')")
        }
        let reopened = try SQLiteMovieStore(path: path)
        defer { reopened.close() }
        #expect(try reopened.poster(key: "OrPhAnPoStErKeY0123456") == nil)
        #expect(try reopened.poster(key: "ThIrDpOsTeRkEy01234567") != nil)
    }

    @Test(.enabled(if: PostgreSQLTestServer.isAvailable)) func postgreSQLKeepsAPosterAndAnotherInstanceHearsIt()
        throws
    {
        let folder = try TemporaryFolder()
        let url = try PostgreSQLTestServer.makeDatabase()
        let store = try PostgreSQLMovieStore(url: url, seedingFrom: try folder.catalog(sampleMovies()))
        let other = try PostgreSQLMovieStore(url: url)
        defer {
            store.close()
            other.close()
        }
        try check(store, observer: other)
        #expect(try other.poster(key: Self.poster.key) == nil)
        #expect(try other.poster(key: "ThIrDpOsTeRkEy01234567") != nil)
    }
}
