import Reactive
import Screenplay
import ViewKit

extension MovieDetailViewController {
    /// Assembles the MovieDetail screen for `/movies/:id`: view controller, driver, binder.
    static func make(
        request: ScreenRequest, store: any MovieStore, readScheduler: any ImmediateSchedulerType
    ) throws -> MovieDetailViewController {
        guard let text = request.parameters["id"], let id = Int(text), id > 0 else {
            throw ScreenNotFound("no movie \(request.parameters["id"] ?? "")")
        }
        // The read that tells a missing movie from a present one is also the driver's first state, and it reads the
        // "More like this" strip's movies with the movie: one store read per screen, one check of the store's cache
        // (Benchmarks/History/73-page-instructions-13.md).
        let initial: MovieDetailData?
        let similar: [Movie]
        do {
            let read = try MoreLikeThisBinder.movieAndSimilarMovies(to: id, in: store)
            guard let movie = read.movie else { throw ScreenNotFound("no movie \(id)") }
            initial = MovieDetailData(movie: movie, phase: .loaded)
            similar = read.similar
        } catch is StoreError {
            // The store is failing: show the screen in its error state rather than a not-found page.
            initial = nil
            similar = []
        }
        // What the load action below needs of it: a captured `var` would be a box of its own holding the movie.
        let hasMovie = initial != nil
        let viewController = MovieDetailViewController()
        let driver = MovieDetailDriver(
            movieID: id, store: store, readScheduler: readScheduler, initial: initial, follows: request.isLive
        ) { [unowned viewController] in
            viewController.navigationController?.popViewController(animated: true)
        }
        viewController.bag.insert(MovieDetailBinder(viewController: viewController, driver: driver))
        // Run once after `viewDidLoad` and let go, with the movies it holds: a subscription to `rx.viewDidLoad` would
        // keep the subject, its entry, this closure and a bag slot for the screen's life.
        viewController.whenViewLoaded { [unowned viewController] in
            viewController.editLink.setAttribute("href", "/movies/\(id)/edit")
            // "More like this": a child view controller with its own template, binder and bag.
            if hasMovie {
                viewController.addChild(
                    MoreLikeThisViewController.make(similar: similar), in: viewController.similarContainer)
            }
        }
        // The page title and the poster's text alternative follow the movie's title too (made again only when it
        // changed: a rating change would otherwise build both strings on every screen of the movie).
        viewController.bag.insert(
            driver.data.drive(onNext: { [unowned viewController] data in
                let source = (title: data.title, hasMovie: data.movie != nil)
                if let made = viewController.titlesMadeFrom, made.hasMovie == source.hasMovie,
                    made.title.isSameText(as: source.title)
                {
                    return
                }
                viewController.titlesMadeFrom = source
                viewController.title = "\(data.title) · Screenplay"
                viewController.posterImageView.alternativeText = data.movie.map { "Poster of \($0.title)" } ?? ""
            })
        )
        return viewController
    }
}
