import Screenplay

/// One item: its title, who added it, and its Done button — every row's button is the action `done`, posted with
/// the row's identity (`?row=<item id>`). Built in code.
final class TodoRowView: View {
    let titleLabel = Label(tagName: "span")
    let addedByLabel = Label(tagName: "span")
    let doneButton = Button(title: "Done", actionName: "done")
    /// The item shown, set by ``configure(with:)``.
    private(set) var item: TodoItem?

    required init(tagName: String = "li") {
        super.init(tagName: "li")
        classList.insert("item")
        titleLabel.classList.insert("title")
        addedByLabel.classList.insert("added-by")
        addSubview(titleLabel)
        addSubview(addedByLabel)
        addSubview(doneButton)
    }

    func configure(with item: TodoItem) {
        self.item = item
        titleLabel.text = item.title
        addedByLabel.text = "added by \(item.addedBy)"
        if item.isDone { classList.insert("done") } else { classList.remove("done") }
        doneButton.isHidden = item.isDone
        doneButton.setAttribute("aria-label", "Done: \(item.title)")
    }
}
