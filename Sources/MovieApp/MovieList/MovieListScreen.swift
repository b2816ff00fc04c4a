import Screenplay

extension MovieListViewController {
    /// Assembles the movie list for `/` and `/movies`: view controller, driver, binder.
    static func make(store: any MovieStore) -> MovieListViewController {
        let viewController = MovieListViewController()
        viewController.bag.insert(
            MovieListBinder(viewController: viewController, driver: MovieListDriver(store: store)))
        return viewController
    }
}
