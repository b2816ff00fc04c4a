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
                .drive(onNext: unowned(self, in: MovieListBinder.configure))
        )
    }

    private func viewWillAppear(_ animated: Bool) {
        viewController.navigationController?.setNavigationBarHidden(false, animated: animated)
    }

    private func configure(_ data: MovieListData) {
        viewController.statusLabel.text = data.errorMessage ?? ""
        viewController.statusLabel.isHidden = data.errorMessage == nil
        viewController.moviesList.update(with: data.movies, id: \.id) { _ in
            MovieCardView()
        } configureRow: { row, movie in
            (row as? MovieCardView)?.configure(with: movie)
        }
    }
}
