import Reactive

/// The movie list's state: every movie, kept current by each movie's change feed, filtered by the search.
protocol MovieListDriving {
    /// The movies; never errors, replays the latest.
    var data: Driver<MovieListData> { get }
    /// The user typed `query` into the search field.
    func search(_ query: String)
}

/// Reads the catalog once and follows every movie's changes.
final class MovieListDriver: MovieListDriving {
    let data: Driver<MovieListData>
    private let state: BehaviorRelay<MovieListData>
    private let bag = DisposeBag()

    /// Every movie, current, whatever the search.
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
        let state = state
        let all = catalog
        // On a screen, each movie's changes are conflated onto it (see MovieDetailDriver): a list that falls behind
        // a stream of writes shows each movie's latest state instead of queueing every version of the whole list.
        let screen = ScreenScheduler.current
        for movie in all {
            var changes = store.changes(of: movie.id)
            if let screen { changes = changes.conflated(on: screen) }
            changes
                .subscribe(onNext: { [weak self] changed in
                    guard let self, let index = catalog.firstIndex(where: { $0.id == changed.id }) else { return }
                    let retitled = catalog[index].title != changed.title
                    catalog[index] = changed
                    if retitled { catalog.sort(by: MovieListData.listOrder) }
                    var current = state.value
                    if current.query.isEmpty, !retitled,
                        let shown = current.movies.firstIndex(where: { $0.id == changed.id })
                    {
                        current.movies[shown] = changed
                    } else {
                        current.movies = catalog.filter { MovieListData.movie($0, matches: current.query) }
                    }
                    if current != state.value { state.accept(current) }
                })
                .disposed(by: bag)
        }
    }

    func search(_ query: String) {
        var current = state.value
        guard current.query != query else { return }
        current.query = query
        current.movies = catalog.filter { MovieListData.movie($0, matches: query) }
        state.accept(current)
    }
}
