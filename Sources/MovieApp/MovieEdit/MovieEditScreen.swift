import Screenplay

extension MovieEditViewController {
    /// Assembles the edit screen for `/movies/:id/edit`: view controller, driver, binder.
    static func make(request: ScreenRequest, store: any MovieStore) throws -> MovieEditViewController {
        guard let text = request.parameters["id"], let id = Int(text), id > 0,
            let movie = try store.movie(id: id)
        else {
            throw ScreenNotFound("no movie \(request.parameters["id"] ?? "")")
        }
        let viewController = MovieEditViewController()
        let driver = MovieEditDriver(movie: movie, store: store) { [unowned viewController] url in
            viewController.navigationController?.push(url)
        }
        viewController.bag.insert(MovieEditBinder(viewController: viewController, driver: driver))
        return viewController
    }
}
