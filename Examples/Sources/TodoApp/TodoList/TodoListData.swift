/// What the to-do screen shows.
struct TodoListData: Equatable {
    var items: [TodoItem] = []
    /// Why the last Add did nothing, or nil.
    var titleError: String?

    var doneCount: Int { items.count(where: \.isDone) }

    var summary: String {
        switch (items.count, doneCount) {
        case (0, _): "Nothing to do."
        case (1, 0): "1 item."
        case (let count, 0): "\(count) items."
        case (let count, let done): "\(count) item\(count == 1 ? "" : "s"), \(done) done."
        }
    }
}
