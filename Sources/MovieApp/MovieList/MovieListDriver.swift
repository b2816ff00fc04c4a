import Primitives
import Reactive

/// The movie list's state: how many movies match the search, kept current by the catalog's change feed; the rows are
/// read by range from the store as the table's window asks for them.
protocol MovieListDriving {
    /// The list's count and changes; never errors, replays the latest.
    var data: Driver<MovieListData> { get }
    /// The user typed `query` into the search field.
    func search(_ query: String)
    /// The movies at the places of `range` in the list (by title, then id, among those the search matches); fewer
    /// past the end, none when the store fails.
    func movies(in range: Range<Int>) -> [Movie]
    /// The place of movie `id` in the list, or nil when it is not in it.
    func place(of id: Int) -> Int?
}

/// Counts the query's movies, reads its pages by range, and follows the catalog's changes: creations, updates and
/// deletions, on any instance. Holds no movie: a list of 100,000 costs what its window shows.
final class MovieListDriver: MovieListDriving {
    let data: Driver<MovieListData>
    private let state: BehaviorRelay<MovieListData>
    private let store: any MovieStore
    private let bag = DisposeBag()

    /// With `follows` false (a page's render, which ends in the turn it was built: ``ScreenRequest/isLive``) the
    /// driver shows the window it read and does not follow the catalog's changes, which a render can never show.
    init(store: any MovieStore, query: String = "", follows: Bool = true) {
        self.store = store
        state = BehaviorRelay(value: Self.read(query, from: store, revision: 0))
        data = state.asDriver()
        guard follows else { return }
        // Changes wait in a list, and a signal that they wait is conflated onto the screen (see MovieDetailDriver):
        // a list that falls behind a stream of writes takes every change in at its next turn, in one read of its
        // window, instead of queueing one turn per change.
        let waiting = Locked<[CatalogChange]>([])
        var signals = store.catalogChanges().map { change in waiting.withLock { $0.append(change) } }
        if let screen = ScreenScheduler.current { signals = signals.conflated(on: screen) }
        signals
            .subscribe(onNext: { [weak self] in
                let changes = waiting.withLock { changes in
                    defer { changes = [] }
                    return changes
                }
                self?.takeIn(changes)
            })
            .disposed(by: bag)
    }

    /// Counts the movies again and asks the table to read its window: rows inserted, removed or moved in view
    /// change, the updated ones shown are configured again, and nothing is sent when nothing in view changed.
    private func takeIn(_ changes: [CatalogChange]) {
        guard !changes.isEmpty else { return }
        var next = Self.read(state.value.query, from: store, revision: state.value.revision + 1)
        next.changed = Set(
            changes.compactMap { change in
                if case .updated(let movie) = change { movie.id } else { nil }
            })
        state.accept(next)
    }

    func search(_ query: String) {
        guard state.value.query != query else { return }
        state.accept(Self.read(query, from: store, revision: state.value.revision + 1))
    }

    func movies(in range: Range<Int>) -> [Movie] {
        guard state.value.errorMessage == nil, !range.isEmpty else { return [] }
        return
            (try? store.movies(
                matching: MovieQuery(search: state.value.query), from: range.lowerBound, count: range.count)) ?? []
    }

    func place(of id: Int) -> Int? {
        let query = MovieQuery(search: state.value.query)
        guard let movie = try? store.movie(id: id), query.matches(movie) else { return nil }
        return try? store.count(of: query, before: movie)
    }

    private static func read(_ query: String, from store: any MovieStore, revision: Int) -> MovieListData {
        do {
            return MovieListData(
                total: try store.count(of: MovieQuery(search: query)), query: query, revision: revision)
        } catch {
            return MovieListData(
                total: 0, errorMessage: "The catalog cannot be read right now. Reload to retry.", query: query,
                revision: revision)
        }
    }
}
