import Primitives
import Reactive

@testable import MovieApp

/// A store that forwards to a SQLite store (``ForwardingMovieStore``) and counts what screens ask of it: reads of one movie, reads of several,
/// subscriptions to a movie's changes and to the catalog's (which a deletion's feed is made of).
final class CountingMovieStore: ForwardingMovieStore, Sendable {
    let base: SQLiteMovieStore
    let singleReads = Locked(0)
    let batchReads = Locked(0)
    /// The ids whose change feed was asked for, in order.
    let followed = Locked<[Int]>([])
    /// How many times the catalog's change feed was asked for.
    let catalogFollowed = Locked(0)

    init(_ base: SQLiteMovieStore) { self.base = base }

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
}
