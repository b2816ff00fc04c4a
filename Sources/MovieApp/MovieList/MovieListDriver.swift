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
        for movie in state.value.movies {
            store.changes(of: movie.id)
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
