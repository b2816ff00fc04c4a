import Foundation
import MovieApp
import ScreenplayTesting
import Testing

/// The store answers repeated reads from memory; every commit, its own or another connection's, must still be
/// visible to the next read.
@Suite("SQLiteMovieStore cache")
struct SQLiteMovieStoreCacheTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    private func makeStore(_ name: String = "movies.sqlite") throws -> SQLiteMovieStore {
        try SQLiteMovieStore(path: folder.path(name), seedingFrom: try folder.catalog(sampleMovies()))
    }

    @Test func aReadAfterAnUpdateSeesTheUpdatedMovie() throws {
        let store = try makeStore()
        #expect(try store.movie(id: 2) == sampleMovies()[1])
        _ = try store.update(id: 2, with: MoviePatch(title: "Renamed", rating: 1.5))
        let movie = try #require(try store.movie(id: 2))
        #expect(movie.title == "Renamed")
        #expect(movie.rating == 1.5)
        #expect(try store.movie(id: 1) == sampleMovies()[0])
    }

    /// A change of a movie's rating hands its screens the text they show: the same strings, which each label then
    /// finds unchanged by their storage, without comparing bytes.
    @Test func anUpdateThatKeepsTheTextSharesTheCachedMoviesStrings() throws {
        let store = try makeStore()
        let before = try #require(try store.movie(id: 1))
        let after = try store.update(id: 1, with: MoviePatch(rating: 4.5))
        #expect(after.rating == 4.5)
        #expect(sameStorage(before.overview, after.overview))
        #expect(before.tips.withUnsafeBufferPointer(\.baseAddress) == after.tips.withUnsafeBufferPointer(\.baseAddress))
        let renamed = try store.update(id: 1, with: MoviePatch(overview: "Another overview, long enough to be stored."))
        #expect(renamed.overview == "Another overview, long enough to be stored.")
        #expect(try store.movie(id: 1) == renamed)
    }

    /// Whether two strings are the same two words: for strings longer than 15 bytes, the same storage.
    private func sameStorage(_ first: String, _ second: String) -> Bool {
        withUnsafeBytes(of: first) { mine in withUnsafeBytes(of: second) { theirs in mine.elementsEqual(theirs) } }
    }

    @Test func aChangeObserverReadingTheStoreSeesTheChangeItWasToldOf() async throws {
        let store = try makeStore()
        _ = try store.movie(id: 1)
        let seen = Mailbox()
        let subscription = store.changes(of: 1).subscribe(onNext: { changed in
            seen.put((changed.rating, try? store.movie(id: 1)?.rating))
        })
        defer { subscription.dispose() }
        _ = try store.update(id: 1, with: MoviePatch(rating: 2.5))
        let (told, read) = try #require(await seen.take())
        #expect(told == 2.5)
        #expect(read == 2.5)
    }

    @Test func aCommitOfAnotherConnectionIsVisibleToTheNextRead() throws {
        let store = try makeStore()
        let other = try SQLiteMovieStore(path: folder.path("movies.sqlite"))
        #expect(try store.movie(id: 3)?.title == sampleMovies()[2].title)
        _ = try other.update(id: 3, with: MoviePatch(title: "Changed elsewhere"))
        #expect(try store.movie(id: 3)?.title == "Changed elsewhere")
        // Both directions, and the first store's own later update starts from the other's commit.
        _ = try store.update(id: 3, with: MoviePatch(rating: 0.5))
        let movie = try #require(try other.movie(id: 3))
        #expect(movie.title == "Changed elsewhere")
        #expect(movie.rating == 0.5)
    }

    /// The data version is asked again for every read, each ask ending its own read of the file: commits of
    /// another connection, one after another between reads, are each seen by the next read and no earlier.
    @Test func eachCommitOfAnotherConnectionIsVisibleToTheReadAfterIt() throws {
        let store = try makeStore()
        let other = try SQLiteMovieStore(path: folder.path("movies.sqlite"))
        for round in 1...4 {
            #expect(try store.movie(id: 2)?.rating == (round == 1 ? sampleMovies()[1].rating : Double(round - 1)))
            #expect(try store.movies(ids: [2]).first??.rating == store.movie(id: 2)?.rating)
            _ = try other.update(id: 2, with: MoviePatch(rating: Double(round)))
            #expect(try store.movies(ids: [1, 2]).last??.rating == Double(round))
        }
    }

    /// A read of several movies at once answers from the cache after one check of the data version, and sees a
    /// commit of another connection as a read of one does, in the order asked; an id no movie has reads nil.
    @Test func aReadOfSeveralMoviesSeesAnotherConnectionsCommitAndLeavesOutUnknownIDs() throws {
        let store = try makeStore()
        let other = try SQLiteMovieStore(path: folder.path("movies.sqlite"))
        #expect(try store.movies(ids: [3, 9, 1]) == [sampleMovies()[2], nil, sampleMovies()[0]])
        _ = try other.update(id: 1, with: MoviePatch(title: "Changed elsewhere"))
        let read = try store.movies(ids: [1, 2, 3])
        #expect(read.count == 3)
        #expect(read.first??.title == "Changed elsewhere")
        #expect(read.dropFirst() == [sampleMovies()[1], sampleMovies()[2]])
        #expect(try store.movies(ids: []).isEmpty)
    }

    /// A read that stops when it has enough hands over what a read of all of them gives, in order, up to where the
    /// body stopped, and sees a commit of another connection as the other reads do.
    @Test func aReadUntilEnoughHandsOverTheMoviesInOrderAndStopsWhereTold() throws {
        let store = try makeStore()
        let other = try SQLiteMovieStore(path: folder.path("movies.sqlite"))
        var seen: [Movie?] = []
        try store.movies(ids: [3, 9, 1, 2]) { movie in
            seen.append(movie)
            return true
        }
        #expect(seen == (try store.movies(ids: [3, 9, 1, 2])))
        _ = try other.update(id: 1, with: MoviePatch(title: "Changed elsewhere"))
        seen = []
        try store.movies(ids: [2, 9, 1, 3]) { movie in
            seen.append(movie)
            return seen.count < 3
        }
        #expect(seen.count == 3)
        #expect(seen.first == sampleMovies()[1])
        #expect(seen[1] == nil)
        #expect(seen.last??.title == "Changed elsewhere")
        try store.movies(ids: []) { _ in
            Issue.record("no movie to hand over")
            return true
        }
    }

    @Test func aReadOnlyStoreSeesCommitsOfTheWriter() throws {
        let store = try makeStore()
        let reader = try SQLiteMovieStore(path: folder.path("movies.sqlite"), readOnly: true)
        #expect(try reader.movie(id: 1) == sampleMovies()[0])
        _ = try store.update(id: 1, with: MoviePatch(year: 2001))
        #expect(try reader.movie(id: 1)?.year == 2001)
    }

    @Test func aFailedUpdateLeavesReadsOnTheCommittedMovie() throws {
        let store = try makeStore()
        _ = try store.movie(id: 2)
        #expect(throws: StoreError.self) { _ = try store.update(id: 9, with: MoviePatch(rating: 1)) }
        #expect(try store.movie(id: 2) == sampleMovies()[1])
        #expect(try store.movie(id: 9) == nil)
    }

    @Test func aPageOpenedAfterAPatchShowsThePatchedMovie() throws {
        let folder = try TemporaryFolder()
        let server = try startServer(databaseIn: folder)
        defer { server.stop() }
        let client = LiveClient(port: server.port)
        let before = try client.get("/movies/1")
        #expect(before.status == 200)
        #expect(!before.text.contains("Retitled by a patch"))
        let patch = try client.request(
            "PATCH", "/api/movies/1", headers: ["Content-Type": "application/merge-patch+json"],
            body: Array(#"{"title": "Retitled by a patch"}"#.utf8))
        #expect(patch.status == 200)
        let after = try client.get("/movies/1")
        #expect(after.status == 200)
        #expect(after.text.contains("Retitled by a patch"))
    }
}

/// One value handed from the store's delivery queue to the test.
private final class Mailbox: Sendable {
    private let stream: AsyncStream<(Double, Double?)>
    private let continuation: AsyncStream<(Double, Double?)>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: (Double, Double?).self)
    }

    func put(_ value: (Double, Double?)) {
        continuation.yield(value)
    }

    func take() async -> (Double, Double?)? {
        var iterator = stream.makeAsyncIterator()
        return await iterator.next()
    }
}
