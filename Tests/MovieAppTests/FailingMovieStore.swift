import MovieApp
import Reactive

/// A store whose storage is gone: every read and write throws ``StoreError/Kind/unavailable``, and nothing ever
/// changes. It shows how screens behave when the catalog cannot be read.
struct FailingMovieStore: MovieStore {
    private var failure: StoreError { StoreError(.unavailable, message: "the disk is gone") }

    func allMovies() throws -> [Movie] { throw failure }

    func movie(id: Int) throws -> Movie? { throw failure }

    func update(id: Int, with patch: MoviePatch) throws -> Movie { throw failure }

    func update(id: Int, with patch: MoviePatch, ifUnchangedSince expected: Movie) throws -> Movie { throw failure }

    func movies(matching query: MovieQuery, from offset: Int, count: Int) throws -> [Movie] { throw failure }

    func count(of query: MovieQuery, before movie: Movie?) throws -> Int { throw failure }

    func create(_ draft: MovieDraft) throws -> Movie { throw failure }

    func delete(id: Int) throws { throw failure }

    func catalogChanges() -> Observable<CatalogChange> { .never() }

    func signInKey() throws -> String { throw failure }

    func metricsExposition() -> String { "" }

    func close() {}

    func changes(of id: Int) -> Observable<Movie> { .never() }
}
