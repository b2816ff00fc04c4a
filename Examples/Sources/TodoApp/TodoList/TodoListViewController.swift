public import Screenplay

/// The shared to-do list at `/todos`, from `Templates/TodoList.html`.
public final class TodoListViewController: ViewController {
    @Outlet("titleField") var titleField: TextField
    @Outlet("addButton") var addButton: Button
    @Outlet("leftBadge") var leftBadge: BadgeView
    @Outlet("summaryLabel") var summaryLabel: Label
    @Outlet("itemsList") var itemsList: ListView
    @Outlet("clearDoneButton") var clearDoneButton: Button
}
