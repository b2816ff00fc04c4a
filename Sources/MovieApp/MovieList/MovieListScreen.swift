import Screenplay

extension MovieListViewController {
    /// Assembles the movie list for `/` and `/movies`: view controller, driver, binder.
    static func make(store: any MovieStore, request: ScreenRequest? = nil) -> MovieListViewController {
        let viewController = MovieListViewController()
        let query = request?.query["q"] ?? ""
        viewController.searchPath = request?.path ?? "/"
        // Without the page's script, the list pages with links: ?page=N shows page N.
        let page = request?.query["page"].flatMap { Int($0) } ?? 1
        viewController.bag.insert(
            MovieListBinder(
                viewController: viewController, driver: MovieListDriver(store: store, query: query), page: page))
        return viewController
    }
}
