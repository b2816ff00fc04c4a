import FoundationEssentials
import Reactive
import Screenplay
import ViewKit

/// The page for an address that names nothing: itself a screen, with a way back to the list.
final class NotFoundViewController: ViewController {
    @Outlet("messageLabel") var messageLabel: Label
    @Outlet("backButton") var backButton: Button

    /// Assembles the not-found screen for `request`.
    static func make(request: ScreenRequest) -> NotFoundViewController {
        let viewController = NotFoundViewController()
        viewController.bag.insert(NotFoundBinder(viewController: viewController, path: request.path))
        return viewController
    }
}

/// Shows what was not found and sends Back to the list.
final class NotFoundBinder: ViewControllerBinder {
    unowned let viewController: NotFoundViewController
    private let path: String

    init(viewController: NotFoundViewController, path: String) {
        self.viewController = viewController
        self.path = path
        bind()
    }

    func dispose() {}

    func bindLoaded() {
        viewController.title = "Not found · Screenplay"
        viewController.messageLabel.text = "There is nothing at \(path). It may have been removed from the catalog."
        viewController.bag.insert(
            viewController.backButton.rx.tap
                .bind(onNext: unowned(self, in: NotFoundBinder.back))
        )
    }

    private func back() {
        viewController.navigationController?.popViewController(animated: true)
    }
}
