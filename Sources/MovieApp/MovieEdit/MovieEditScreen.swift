import Reactive
import Screenplay

extension MovieEditViewController {
    /// Assembles the edit screen for `/movies/:id/edit`: view controller, driver, binder.
    /// A finished poster is read and kept on `writeScheduler`, off the screen.
    static func make(
        request: ScreenRequest, store: any MovieStore, writeScheduler: any ImmediateSchedulerType
    ) throws -> MovieEditViewController {
        guard let text = request.parameters["id"], let id = Int(text), id > 0,
            let movie = try store.movie(id: id)
        else {
            throw ScreenNotFound("no movie \(request.parameters["id"] ?? "")")
        }
        let viewController = MovieEditViewController()
        let driver = MovieEditDriver(
            movie: movie, store: store, writeScheduler: writeScheduler, follows: request.isLive
        ) {
            [unowned viewController] url in
            viewController.navigationController?.push(url)
        }
        viewController.bag.insert(MovieEditBinder(viewController: viewController, driver: driver))
        return viewController
    }
}
