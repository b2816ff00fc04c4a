import Reactive

@testable import MovieApp

/// A test store that hands what ``MovieStore`` requires to a SQLite store, `base`. What the protocol has a default
/// for (a batch read, a movie's deletion, its changes and deletion, the instance messenger) stays the protocol's
/// unless the store writes its own, and so does anything the store writes itself.
protocol ForwardingMovieStore: MovieStore {
    var base: SQLiteMovieStore { get }
}

extension ForwardingMovieStore {
    func allMovies() throws -> [Movie] { try base.allMovies() }
    func movie(id: Int) throws -> Movie? { try base.movie(id: id) }
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
    func changes(of id: Int) -> Observable<Movie> { base.changes(of: id) }
    func catalogChanges() -> Observable<CatalogChange> { base.catalogChanges() }
    func signInKey() throws -> String { try base.signInKey() }
    func metricsExposition() -> String { base.metricsExposition() }
    func close() { base.close() }
}
