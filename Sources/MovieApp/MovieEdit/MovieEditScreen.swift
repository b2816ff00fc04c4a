import Screenplay

extension MovieEditViewController {
    /// Assembles the edit screen for `/movies/:id/edit`: view controller, driver, binder. `deleteMovie` deletes a
    /// movie by id from the catalog (its Delete confirmed); without it, Delete says the catalog cannot delete.
    static func make(
        request: ScreenRequest, store: any MovieStore, deleteMovie: (@Sendable (Int) throws -> Void)? = nil
    ) throws -> MovieEditViewController {
        guard let text = request.parameters["id"], let id = Int(text), id > 0,
            let movie = try store.movie(id: id)
        else {
            throw ScreenNotFound("no movie \(request.parameters["id"] ?? "")")
        }
        let viewController = MovieEditViewController()
        let driver = MovieEditDriver(movie: movie, store: store, deleteMovie: deleteMovie) {
            [unowned viewController] url in
            viewController.navigationController?.push(url)
        }
        viewController.bag.insert(MovieEditBinder(viewController: viewController, driver: driver))
        return viewController
    }
}
