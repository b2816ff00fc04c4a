import Reactive

/// The movie list's state: every movie, kept current by each movie's change feed.
protocol MovieListDriving {
    /// The movies; never errors, replays the latest.
    var data: Driver<MovieListData> { get }
}

/// Reads the catalog once and follows every movie's changes.
final class MovieListDriver: MovieListDriving {
    let data: Driver<MovieListData>
    private let state: BehaviorRelay<MovieListData>
    private let bag = DisposeBag()

    init(store: any MovieStore) {
        do {
            state = BehaviorRelay(value: MovieListData(movies: try store.allMovies()))
        } catch {
            state = BehaviorRelay(
                value: MovieListData(movies: [], errorMessage: "The catalog cannot be read right now. Reload to retry.")
            )
        }
        data = state.asDriver()
        let state = state
        // On a screen, each movie's changes are conflated onto it (see MovieDetailDriver): a list that falls behind
        // a stream of writes shows each movie's latest state instead of queueing every version of the whole list.
        let screen = ScreenScheduler.current
        for movie in state.value.movies {
            var changes = store.changes(of: movie.id)
            if let screen { changes = changes.conflated(on: screen) }
            changes
                .subscribe(onNext: { changed in
                    var current = state.value
                    if let index = current.movies.firstIndex(where: { $0.id == changed.id }) {
                        current.movies[index] = changed
                        state.accept(current)
                    }
                })
                .disposed(by: bag)
        }
    }
}
