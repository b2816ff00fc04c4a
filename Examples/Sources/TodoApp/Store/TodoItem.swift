/// One item of the shared list.
public struct TodoItem: Sendable, Equatable {
    /// The item's identity: its row's, which its Done button posts (`?row=`).
    public let id: Int
    /// What is to be done.
    public var title: String
    /// The name signed in when it was added.
    public var addedBy: String
    /// Whether it is done (it stays in the list until "Clear done").
    public var isDone: Bool

    public init(id: Int, title: String, addedBy: String, isDone: Bool = false) {
        self.id = id
        self.title = title
        self.addedBy = addedBy
        self.isDone = isDone
    }
}
