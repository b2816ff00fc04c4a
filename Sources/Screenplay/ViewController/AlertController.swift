internal import ViewKit

/// An action of an ``AlertController``: a button with a title and a style, like `UIAlertAction`.
public struct AlertAction {
    /// How an action's button looks and what Escape does.
    public enum Style: Sendable, Equatable {
        /// An ordinary action.
        case `default`
        /// Leaves the alert changing nothing; Escape runs it. An alert has at most one.
        case cancel
        /// Changes or deletes data (styled as such: class `sp-destructive`).
        case destructive
    }

    /// The button's label.
    public let title: String
    /// The button's style.
    public let style: Style
    /// Runs after the alert has been dismissed, on the screen's scheduler.
    let handler: ((AlertAction) -> Void)?

    /// An action titled `title`; `handler` runs once the alert is dismissed.
    public init(title: String, style: Style, handler: ((AlertAction) -> Void)? = nil) {
        self.title = title
        self.style = style
        self.handler = handler
    }
}

@available(*, unavailable)
extension AlertAction: Sendable {}

/// A view controller that asks a question with a title, a message and buttons, like `UIAlertController`; present it
/// with ``ViewController/present(_:animated:completion:)``. Its view is built in code (it needs no template): a
/// heading with the title (which names the dialog), the message, and a button for each action in the order added.
/// The dialog is an `alertdialog`. Pressing a button dismisses the alert, then runs its action's handler; Escape
/// runs the cancel action's (an alert without one stays open on Escape).
///
/// ```swift
/// let alert = AlertController(title: "Delete “Heat”?", message: "This cannot be undone.")
/// alert.addAction(AlertAction(title: "Cancel", style: .cancel))
/// alert.addAction(AlertAction(title: "Delete", style: .destructive) { _ in driver.delete() })
/// present(alert, animated: true)
/// ```
public final class AlertController: ViewController {
    /// The alert's title: its heading, and the dialog's accessible name.
    public override var title: String? {
        didSet { titleLabel?.text = title ?? "" }
    }

    /// The message under the title.
    public var message: String? {
        didSet {
            messageLabel?.text = message ?? ""
            messageLabel?.isHidden = message == nil
        }
    }

    /// The actions, in the order added.
    public private(set) var actions: [AlertAction] = []

    private var titleLabel: Label?
    private var messageLabel: Label?
    private var buttonRow: View?

    /// An alert with no title, message or action yet.
    public required init() {
        super.init()
    }

    /// An alert titled `title` (the dialog's accessible name) showing `message`.
    public convenience init(title: String?, message: String?) {
        self.init()
        self.title = title
        self.message = message
    }

    /// Adds a button for `action`. A second cancel action is a mistake, reported, and not added.
    public func addAction(_ action: AlertAction) {
        if action.style == .cancel, actions.contains(where: { $0.style == .cancel }) {
            ProgrammerErrors.report(
                ProgrammerError(
                    mistake: "AlertController was given a second cancel action (“\(action.title)”); it was not added.",
                    fix: "give an alert one action of style .cancel."))
            return
        }
        actions.append(action)
        if let buttonRow { addButton(for: action, at: actions.count - 1, to: buttonRow) }
    }

    /// Builds the alert's view: heading, message, buttons.
    public override func loadView() {
        let root = View(tagName: "div")
        root.classList.insert("sp-alert")
        let heading = Label(text: title ?? "", tagName: "h2")
        let body = Label(text: message ?? "", tagName: "p")
        body.isHidden = message == nil
        let row = View(tagName: "div")
        row.classList.insert("sp-alert-actions")
        root.addSubview(heading)
        root.addSubview(body)
        root.addSubview(row)
        titleLabel = heading
        messageLabel = body
        buttonRow = row
        for (index, action) in actions.enumerated() { addButton(for: action, at: index, to: row) }
        setView(root)
    }

    /// The action name of the button for the action at `index`.
    package static func actionName(at index: Int) -> String { "sp-alert-\(index)" }

    private func addButton(for action: AlertAction, at index: Int, to row: View) {
        let button = Button(title: action.title, actionName: Self.actionName(at: index))
        switch action.style {
        case .default: break
        case .cancel: button.classList.insert("sp-cancel")
        case .destructive: button.classList.insert("sp-destructive")
        }
        row.addSubview(button)
        bag.insert(button.rx.tap.bind(onNext: { [weak self] in self?.perform(action) }))
    }

    /// Names the message as the dialog's description, once the dialog is in the page (its ids are the page's).
    func describe(_ dialog: View) {
        if let messageLabel, message != nil { dialog.setAttribute("aria-describedby", messageLabel.domID) }
    }

    /// Dismisses the alert, then runs the action's handler.
    private func perform(_ action: AlertAction) {
        dismiss(animated: true)
        action.handler?(action)
    }

    /// The dialog is an `alertdialog`; Escape posts the cancel action's button, if any.
    override func cancelActionForPresentation(in dialog: View) -> String? {
        dialog.setAttribute("role", "alertdialog")
        guard let index = actions.firstIndex(where: { $0.style == .cancel }) else { return nil }
        return Self.actionName(at: index)
    }
}
