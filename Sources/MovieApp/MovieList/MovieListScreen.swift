import Screenplay

extension MovieListViewController {
    /// Assembles the movie list for `/` and `/movies`: view controller, driver, binder.
    static func make(store: any MovieStore, request: ScreenRequest? = nil) -> MovieListViewController {
        let viewController = MovieListViewController()
        let query = request?.query["q"] ?? ""
        viewController.searchPath = request?.path ?? "/"
        viewController.bag.insert(
            MovieListBinder(viewController: viewController, driver: MovieListDriver(store: store, query: query)))
        return viewController
    }
}
