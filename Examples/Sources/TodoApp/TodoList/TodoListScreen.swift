import Screenplay

extension TodoListViewController {
    /// Assembles the to-do screen for `user` on `store`: view controller, driver, binder.
    public static func make(store: TodoStore, user: String) -> TodoListViewController {
        let viewController = TodoListViewController()
        viewController.bag.insert(
            TodoListBinder(viewController: viewController, driver: TodoListDriver(store: store, user: user)))
        return viewController
    }
}
