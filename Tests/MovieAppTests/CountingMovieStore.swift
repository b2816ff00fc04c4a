import Primitives
import Reactive

@testable import MovieApp

/// A store that forwards to a SQLite store and counts what screens ask of it: reads of one movie, reads of several,
/// subscriptions to a movie's changes and to the catalog's (which a deletion's feed is made of).
final class CountingMovieStore: MovieStore, Sendable {
    let base: SQLiteMovieStore
    let singleReads = Locked(0)
    let batchReads = Locked(0)
    /// The ids whose change feed was asked for, in order.
    let followed = Locked<[Int]>([])
    /// How many times the catalog's change feed was asked for.
    let catalogFollowed = Locked(0)

    init(_ base: SQLiteMovieStore) { self.base = base }

    func allMovies() throws -> [Movie] { try base.allMovies() }
    func movie(id: Int) throws -> Movie? {
        singleReads.withLock { $0 += 1 }
        return try base.movie(id: id)
    }
    func movies(ids: [Int]) throws -> [Movie?] {
        batchReads.withLock { $0 += 1 }
        return try base.movies(ids: ids)
    }
    func movies(ids: [Int], while body: (Movie?) -> Bool) throws {
        batchReads.withLock { $0 += 1 }
        try base.movies(ids: ids, while: body)
    }
    func movies(matching query: MovieQuery, from offset: Int, count: Int) throws -> [Movie] {
        try base.movies(matching: query, from: offset, count: count)
    }
    func count(of query: MovieQuery, before movie: Movie?) throws -> Int { try base.count(of: query, before: movie) }
    func update(id: Int, with patch: MoviePatch) throws -> Movie { try base.update(id: id, with: patch) }
    func update(id: Int, with patch: MoviePatch, ifUnchangedSince expected: Movie) throws -> Movie {
        try base.update(id: id, with: patch, ifUnchangedSince: expected)
    }
    func create(_ draft: MovieDraft) throws -> Movie { try base.create(draft) }
    func delete(id: Int) throws { try base.delete(id: id) }
    func changes(of id: Int) -> Observable<Movie> {
        followed.withLock { $0.append(id) }
        return base.changes(of: id)
    }
    func changesAndDeletion(of id: Int) -> Observable<Movie?> {
        followed.withLock { $0.append(id) }
        return base.changesAndDeletion(of: id)
    }
    func catalogChanges() -> Observable<CatalogChange> {
        catalogFollowed.withLock { $0 += 1 }
        return base.catalogChanges()
    }
    func signInKey() throws -> String { try base.signInKey() }
    func metricsExposition() -> String { base.metricsExposition() }
    func close() { base.close() }
}
