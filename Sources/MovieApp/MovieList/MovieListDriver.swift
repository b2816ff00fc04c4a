import Primitives
import Reactive

/// The movie list's state: every movie, kept current by the catalog's change feed, filtered by the search.
protocol MovieListDriving {
    /// The movies; never errors, replays the latest.
    var data: Driver<MovieListData> { get }
    /// The user typed `query` into the search field.
    func search(_ query: String)
}

/// Reads the catalog once and follows the catalog's changes: creations, updates and deletions, on any instance.
final class MovieListDriver: MovieListDriving {
    let data: Driver<MovieListData>
    private let state: BehaviorRelay<MovieListData>
    private let bag = DisposeBag()

    /// Every movie, current, whatever the search, by title then id.
    private var catalog: [Movie]

    init(store: any MovieStore, query: String = "") {
        do {
            let movies = try store.allMovies().sorted(by: MovieListData.listOrder)
            catalog = movies
            state = BehaviorRelay(
                value: MovieListData(movies: movies.filter { MovieListData.movie($0, matches: query) }, query: query))
        } catch {
            catalog = []
            state = BehaviorRelay(
                value: MovieListData(movies: [], errorMessage: "The catalog cannot be read right now. Reload to retry.")
            )
        }
        data = state.asDriver()
        // Changes wait in a list, and a signal that they wait is conflated onto the screen (see MovieDetailDriver):
        // a list that falls behind a stream of writes applies every change at its next turn, in one update, instead
        // of queueing one turn per change. Nothing is lost: each change is a row to insert, reload or remove.
        let waiting = Locked<[CatalogChange]>([])
        var signals = store.catalogChanges().map { change in waiting.withLock { $0.append(change) } }
        if let screen = ScreenScheduler.current { signals = signals.conflated(on: screen) }
        signals
            .subscribe(onNext: { [weak self] in
                let changes = waiting.withLock { changes in
                    defer { changes = [] }
                    return changes
                }
                self?.apply(changes)
            })
            .disposed(by: bag)
    }

    /// Puts created movies in their place, updated ones in their new place, and takes deleted ones out.
    private func apply(_ changes: [CatalogChange]) {
        guard !changes.isEmpty else { return }
        for change in changes {
            if let index = catalog.firstIndex(where: { $0.id == change.id }) { catalog.remove(at: index) }
            switch change {
            case .inserted(let movie), .updated(let movie):
                let place = catalog.partitioningIndex(where: { !MovieListData.listOrder($0, movie) })
                catalog.insert(movie, at: place)
            case .deleted:
                break
            }
        }
        var current = state.value
        current.movies = catalog.filter { MovieListData.movie($0, matches: current.query) }
        if current != state.value { state.accept(current) }
    }
    func search(_ query: String) {
        var current = state.value
        guard current.query != query else { return }
        current.query = query
        current.movies = catalog.filter { MovieListData.movie($0, matches: query) }
        state.accept(current)
    }
}

extension Array {
    /// The first index whose element satisfies `belongs`, in an array where every such element follows every other.
    fileprivate func partitioningIndex(where belongs: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if belongs(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
