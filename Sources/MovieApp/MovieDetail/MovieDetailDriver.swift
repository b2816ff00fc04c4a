import Reactive

/// Reads one movie from the store, follows its change feed, and re-reads it on `refresh()`.
///
/// Reads happen on `readScheduler` (a background scheduler in the app, a `TestScheduler` in tests), so the
/// refreshing state reaches the page before the re-read result does.
final class MovieDetailDriver: MovieDetailDriving {
    let data: Driver<MovieDetailData>
    private let state = BehaviorRelay<MovieDetailData>(value: .loading)
    private let movieID: Int
    private let store: any MovieStore
    private let readScheduler: any ImmediateSchedulerType
    private let onClose: () -> Void
    /// The movie's changes, followed as long as the driver lives.
    private var follow: (any Disposable)?
    /// The reads ``refresh()`` scheduled, disposed with the driver: made by the first refresh, as most screens never
    /// refresh (a bag and its array lived as long as each screen for nothing: Benchmarks/History/54-screen-memory-8.md).
    private lazy var refreshes = DisposeBag()

    /// `initial` is the movie as the caller just read it; without it the driver reads the store itself. With
    /// `follows` false (a page's render, which ends in the turn it was built: ``ScreenRequest/isLive``) the driver
    /// shows what it read and follows neither the movie's changes nor its deletion: subscribing to both and disposing
    /// of them again is a render's work for changes it could never show (Benchmarks/History/34).
    init(
        movieID: Int, store: any MovieStore, readScheduler: any ImmediateSchedulerType,
        initial: MovieDetailData? = nil, follows: Bool = true, onClose: @escaping () -> Void
    ) {
        self.movieID = movieID
        self.store = store
        self.readScheduler = readScheduler
        self.onClose = onClose
        data = state.asDriver()
        state.accept(initial ?? Self.read(movieID, from: store, phase: .loaded))
        guard follows else { return }
        // The movie's changes and its deletion (on any instance, which leaves the screen showing that the movie is
        // gone) come as one feed in commit order, so a screen follows its movie once: one conflated slot, one bind
        // (two follows, each with its slot and bind, kept twice that for the screen's life: Benchmarks/History/41).
        // On a screen, changes are conflated onto it: a screen shows the movie's latest state, and one that falls
        // behind a stream of writes (PATCHes faster than its renders) skips the versions it has not shown yet
        // instead of queueing every one of them (the soak's writers grew the server past a gigabyte that way). A
        // held screen's feed pauses, the deletion with the changes, and catches up when a page watches again.
        var follow = store.changesAndDeletion(of: movieID)
        if let screen = ScreenScheduler.current { follow = follow.conflated(on: screen) }
        // Made into the screen's data in the closure that takes it, not by a `map` before a `bind(to:)`: the
        // subscription lives as long as the screen, and a `map` kept two more objects. The closure holds the relay
        // alone (which makes it no object of its own): the message is named by its type, not by `Self`, which the
        // closure would hold too.
        let state = state
        self.follow = follow.bind(onNext: { movie in
            state.accept(
                movie.map { MovieDetailData(movie: $0, phase: .loaded) }
                    ?? MovieDetailData(movie: nil, phase: .failed(message: MovieDetailDriver.goneMessage)))
        })
    }

    deinit {
        follow?.dispose()
    }

    func close() {
        onClose()
    }

    func refresh() {
        var refreshing = state.value
        refreshing.phase = .refreshing
        state.accept(refreshing)
        let (state, movieID, store) = (state, movieID, store)
        readScheduler.schedule(()) { _ in
            state.accept(Self.read(movieID, from: store, phase: .loaded))
            return Disposables.create()
        }
        .disposed(by: refreshes)
    }

    /// What the screen says once its movie is deleted.
    static let goneMessage = "This movie is no longer in the catalog."

    private static func read(_ id: Int, from store: any MovieStore, phase: MovieDetailData.Phase) -> MovieDetailData {
        do {
            guard let movie = try store.movie(id: id) else {
                return MovieDetailData(movie: nil, phase: .failed(message: goneMessage))
            }
            return MovieDetailData(movie: movie, phase: phase)
        } catch {
            return MovieDetailData(
                movie: nil, phase: .failed(message: "The catalog cannot be read right now. Try Refresh."))
        }
    }
}
