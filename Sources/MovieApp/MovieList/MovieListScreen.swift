import Screenplay

extension MovieListViewController {
    /// Assembles the movie list for `/` and `/movies`: view controller, driver, binder.
    static func make(store: any MovieStore, request: ScreenRequest? = nil) -> MovieListViewController {
        let viewController = MovieListViewController()
        let query = request?.query["q"] ?? ""
        viewController.searchPath = request?.path ?? "/"
        // Without the page's script, the list pages with links: ?page=N shows page N.
        let page = request?.query["page"].flatMap { Int($0) } ?? 1
        // A page's render follows no change; the live screen its stream builds does.
        let driver = MovieListDriver(store: store, query: query, follows: request?.isLive ?? true)
        viewController.bag.insert(MovieListBinder(viewController: viewController, driver: driver, page: page))
        return viewController
    }
}
