import Screenplay

/// The to-do screen's state and intents: the store's list, followed live, and what this screen's user typed.
///
/// Confined to its screen's scheduler, like the screen's views.
final class TodoListDriver {
    private let store: TodoStore
    private let user: String
    private let state: BehaviorRelay<TodoListData>
    private let titleRelay = BehaviorRelay(value: "")
    private let bag = DisposeBag()
    private var typedTitle = ""

    /// The screen's state; never fails, replays the latest.
    var data: Driver<TodoListData> { state.asDriver() }
    /// The new item's field, from the server: empty at first and again after each Add (and only then, so that
    /// another user's change never touches what this one is typing).
    var title: Driver<String> { titleRelay.asDriver() }

    init(store: TodoStore, user: String) {
        self.store = store
        self.user = user
        let state = BehaviorRelay(value: TodoListData(items: store.items))
        self.state = state
        // On a screen the store's lists are conflated onto it: a screen that falls behind shows the newest list.
        var changes = store.changes
        if let screen = ScreenScheduler.current { changes = changes.conflated(on: screen) }
        changes
            .subscribe(onNext: { items in
                var data = state.value
                guard data.items != items else { return }
                data.items = items
                state.accept(data)
            })
            .disposed(by: bag)
    }

    func setTitle(_ title: String) {
        typedTitle = title
    }

    func add() {
        let added = store.add(typedTitle, by: user) != nil
        if added {
            typedTitle = ""
            titleRelay.accept("")
        }
        // Read after the write: the store's change may already have updated the items.
        var data = state.value
        data.titleError = added ? nil : "Name the item first."
        if data != state.value { state.accept(data) }
    }

    func markDone(_ id: Int) {
        store.markDone(id)
    }

    func clearDone() {
        store.clearDone()
    }
}

@available(*, unavailable) extension TodoListDriver: Sendable {}
