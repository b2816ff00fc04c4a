import Foundation
import Reactive
import Screenplay
import ViewKit

/// Binds the movie list the way the seed binds MovieDetail: style, state, actions.
final class MovieListBinder: ViewControllerBinder {
    unowned let viewController: MovieListViewController
    private let driver: MovieListDriving

    init(viewController: MovieListViewController, driver: MovieListDriving) {
        self.viewController = viewController
        self.driver = driver
        bind()
    }

    func dispose() {}

    func bindLoaded() {
        // 1. Style
        viewController.statusBarStyle = .default
        viewController.title = "Movies · Screenplay"

        // 2. State
        viewController.bag.insert(
            viewController.rx.viewWillAppear
                .bind(onNext: unowned(self, in: MovieListBinder.viewWillAppear)),
            driver.data
                .drive(onNext: unowned(self, in: MovieListBinder.configure)),
            driver.data.map(\.query)
                .drive(viewController.searchField.rx.text)
        )

        // 3. Action
        viewController.bag.insert(
            viewController.searchField.rx.text.orEmpty.changed
                .bind(onNext: driver.search)
        )
    }

    private func viewWillAppear(_ animated: Bool) {
        viewController.navigationController?.setNavigationBarHidden(false, animated: animated)
    }

    private func configure(_ data: MovieListData) {
        let message =
            data.errorMessage
            ?? (data.movies.isEmpty && !data.query.isEmpty ? "No movie matches “\(data.query)”." : nil)
        viewController.statusLabel.text = message ?? ""
        viewController.statusLabel.isHidden = message == nil
        viewController.navigationController?.replaceURL(
            MovieListData.url(path: viewController.searchPath, query: data.query))
        viewController.moviesList.update(with: data.movies, id: \.id) { _ in
            MovieCardView()
        } configureRow: { row, movie in
            (row as? MovieCardView)?.configure(with: movie)
        }
    }
}
