import Screenplay

/// Binds the to-do screen: style, state, actions.
final class TodoListBinder: ViewControllerBinder {
    unowned let viewController: TodoListViewController
    private let driver: TodoListDriver

    init(viewController: TodoListViewController, driver: TodoListDriver) {
        self.viewController = viewController
        self.driver = driver
        bind()
    }

    func dispose() {}

    func bindLoaded() {
        // 1. Style
        viewController.title = "To-do"

        // 2. State
        viewController.bag.insert(
            driver.data.drive(onNext: unowned(self, in: TodoListBinder.configure)),
            driver.title.drive(viewController.titleField.rx.text),
            driver.data.map(\.titleError).drive(viewController.titleField.rx.errorMessage)
        )

        // 3. Action
        viewController.bag.insert(
            viewController.titleField.rx.text.orEmpty.changed.bind(onNext: driver.setTitle),
            viewController.addButton.rx.tap.bind(onNext: driver.add),
            viewController.clearDoneButton.rx.tap.bind(onNext: driver.clearDone)
        )
    }

    private func configure(_ data: TodoListData) {
        viewController.leftBadge.count = data.items.count - data.doneCount
        viewController.summaryLabel.text = data.summary
        viewController.clearDoneButton.isEnabled = data.doneCount > 0
        let driver = driver
        let bag = viewController.bag
        viewController.itemsList.update(with: data.items, id: \.id) { item in
            let row = TodoRowView()
            let id = item.id
            // A row keeps its identity, so its button's tap is bound once, when the row is made.
            bag.insert(row.doneButton.rx.tap.bind(onNext: { driver.markDone(id) }))
            return row
        } configureRow: { row, item in
            (row as? TodoRowView)?.configure(with: item)
        }
    }
}
