import Reactive
import Screenplay
import ViewKit

/// Binds the edit form in the seed's shape: style, state, actions.
final class MovieEditBinder: ViewControllerBinder {
    unowned let viewController: MovieEditViewController
    private let driver: MovieEditDriving

    init(viewController: MovieEditViewController, driver: MovieEditDriving) {
        self.viewController = viewController
        self.driver = driver
        bind()
    }

    func dispose() {}

    func bindLoaded() {
        // 1. Style
        viewController.statusBarStyle = .default

        // 2. State
        let form = driver.data.map(\.form)
        let errors = driver.data.map(\.errors)
        viewController.bag.insert(
            viewController.rx.viewWillAppear
                .bind(onNext: unowned(self, in: MovieEditBinder.viewWillAppear)),
            driver.data
                .drive(onNext: unowned(self, in: MovieEditBinder.configure))
        )
        viewController.bag.insert(
            form.map(\.title).drive(viewController.titleField.rx.text),
            form.map(\.year).drive(viewController.yearField.rx.text),
            form.map(\.runtime).drive(viewController.runtimeField.rx.text),
            form.map(\.genres).drive(viewController.genresField.rx.text),
            form.map(\.rating).drive(viewController.ratingField.rx.text),
            form.map(\.overview).drive(viewController.overviewField.rx.text)
        )
        viewController.bag.insert(
            errors.map(\.title).drive(viewController.titleField.rx.errorMessage),
            errors.map(\.year).drive(viewController.yearField.rx.errorMessage),
            errors.map(\.runtime).drive(viewController.runtimeField.rx.errorMessage),
            errors.map(\.genres).drive(viewController.genresField.rx.errorMessage),
            errors.map(\.rating).drive(viewController.ratingField.rx.errorMessage),
            errors.map(\.overview).drive(viewController.overviewField.rx.errorMessage)
        )

        // 3. Action
        viewController.bag.insert(
            viewController.titleField.rx.text.orEmpty.changed.bind(onNext: driver.setTitle),
            viewController.yearField.rx.text.orEmpty.changed.bind(onNext: driver.setYear),
            viewController.runtimeField.rx.text.orEmpty.changed.bind(onNext: driver.setRuntime),
            viewController.genresField.rx.text.orEmpty.changed.bind(onNext: driver.setGenres),
            viewController.ratingField.rx.text.orEmpty.changed.bind(onNext: driver.setRating),
            viewController.overviewField.rx.text.orEmpty.changed.bind(onNext: driver.setOverview)
        )
        viewController.bag.insert(
            viewController.posterField.rx.file.bind(onNext: driver.posterUploaded)
        )
        viewController.bag.insert(
            viewController.saveButton.rx.tap.bind(onNext: driver.save),
            viewController.cancelButton.rx.tap.bind(onNext: driver.cancel),
            viewController.deleteButton.rx.tap.bind(onNext: unowned(self, in: MovieEditBinder.confirmDelete))
        )
    }

    /// The title of the movie as the form started from it, for the Delete alert.
    private var movieTitle = ""

    /// Asks before deleting: an alert whose destructive action deletes through the driver.
    private func confirmDelete() {
        let alert = AlertController(
            title: "Delete “\(movieTitle)”?",
            message: "The movie leaves the catalog for everyone. This cannot be undone.")
        alert.addAction(AlertAction(title: "Cancel", style: .cancel))
        alert.addAction(AlertAction(title: "Delete", style: .destructive) { [driver] _ in driver.delete() })
        viewController.present(alert, animated: true)
    }

    private func viewWillAppear(_ animated: Bool) {
        viewController.navigationController?.setNavigationBarHidden(false, animated: animated)
    }

    private func configure(_ data: MovieEditData) {
        movieTitle = data.original.title
        viewController.title = "Edit \(data.original.title) · Screenplay"
        viewController.headingLabel.text = "Edit “\(data.original.title)”"
        viewController.statusLabel.text = data.status ?? ""
        viewController.statusLabel.isHidden = data.status == nil
    }
}
