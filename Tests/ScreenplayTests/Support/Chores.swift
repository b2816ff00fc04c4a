import Foundation
import HTTPServer
import Reactive
import Screenplay
import ScreenplayTesting
import Synchronization
import ViewKit

/// A screen with a form, fields of every kind and list rows whose buttons share one action: the forms tests' app.
final class ChoresViewController: ViewController {
    @Outlet("newChoreField") var newChoreField: TextField
    @Outlet("minutesField") var minutesField: TextField
    @Outlet("urgentSwitch") var urgentSwitch: Switch
    @Outlet("roomPicker") var roomPicker: Picker
    @Outlet("addButton") var addButton: Button
    @Outlet("filterField") var filterField: TextField
    @Outlet("summaryLabel") var summaryLabel: Label
    @Outlet("choresList") var choresList: ListView
    @Outlet("secretButton") var secretButton: Button
    @Outlet("rememberButton") var rememberButton: Button
}

/// One chore.
struct Chore: Equatable, Sendable {
    var id: Int
    var title: String
    var minutes: Int?
    var urgent: Bool
    var room: String?
}

/// A row: the chore's title and its Done button (every row's button is the action `done`).
final class ChoreRow: View {
    let titleLabel = Label(tagName: "span")
    let doneButton = Button(title: "Done", actionName: "done")

    required init(tagName: String = "li") {
        super.init(tagName: "li")
        addSubview(titleLabel)
        addSubview(doneButton)
    }
}

/// The chores, shared by every screen of the test app, with what each screen's binder heard.
final class ChoreBook: Sendable {
    let chores = BehaviorRelay<[Chore]>(value: [
        Chore(id: 1, title: "Dishes", minutes: 10, urgent: false, room: "kitchen"),
        Chore(id: 2, title: "Laundry", minutes: 30, urgent: true, room: nil),
    ])
    private let nextID = Mutex(3)
    /// Every value `rx.text` of the new-chore field sent, in order, across screens.
    let typed = Mutex<[String]>([])
    /// Every editing event of the filter field, in order.
    let filterEvents = Mutex<[String]>([])
    let secretTaps = Mutex(0)

    func add(_ title: String, minutes: String, urgent: Bool, room: String?) {
        let id = nextID.withLock { value in
            defer { value += 1 }
            return value
        }
        chores.accept(chores.value + [Chore(id: id, title: title, minutes: Int(minutes), urgent: urgent, room: room)])
    }

    func done(_ id: Int) {
        chores.accept(chores.value.filter { $0.id != id })
    }

    func make() -> ChoresViewController {
        let viewController = ChoresViewController()
        viewController.bag.insert(ChoresBinder(viewController: viewController, book: self))
        return viewController
    }
}

final class ChoresBinder: ViewControllerBinder {
    unowned let viewController: ChoresViewController
    private let book: ChoreBook

    init(viewController: ChoresViewController, book: ChoreBook) {
        self.viewController = viewController
        self.book = book
        bind()
    }

    func dispose() {}

    func bindLoaded() {
        // 1. Style
        viewController.title = "Chores"

        // 2. State
        let book = book
        viewController.bag.insert(
            book.chores.asDriver().drive(onNext: unowned(self, in: ChoresBinder.configure)),
            viewController.minutesField.rx.text.orEmpty.map { $0.isEmpty || Int($0) != nil ? nil : "Whole minutes" }
                .bind(to: viewController.minutesField.rx.errorMessage)
        )

        // 3. Action
        viewController.bag.insert(
            viewController.newChoreField.rx.text.orEmpty.changed.bind(onNext: { text in
                book.typed.withLock { $0.append(text) }
            }),
            viewController.filterField.rx.controlEvent(.editingChanged).bind(onNext: { [unowned viewController] in
                book.filterEvents.withLock { $0.append("changed:\(viewController.filterField.text)") }
            }),
            viewController.filterField.rx.controlEvent(.editingDidEnd).bind(onNext: {
                book.filterEvents.withLock { $0.append("ended") }
            }),
            viewController.filterField.rx.controlEvent(.primaryActionTriggered).bind(onNext: {
                book.filterEvents.withLock { $0.append("primary") }
            }),
            viewController.addButton.rx.tap.bind(onNext: unowned(self, in: ChoresBinder.add)),
            viewController.secretButton.rx.tap.bind(onNext: { book.secretTaps.withLock { $0 += 1 } }),
            viewController.rememberButton.rx.tap.bind(onNext: { [unowned viewController] in
                viewController.setCookie(Cookie(name: "chores_view", value: "compact", maxAge: .seconds(3600)))
            })
        )
    }

    private func add() {
        let title = viewController.newChoreField.text
        guard !title.isEmpty else {
            viewController.newChoreField.errorMessage = "Name the chore."
            return
        }
        viewController.newChoreField.errorMessage = nil
        book.add(
            title, minutes: viewController.minutesField.text, urgent: viewController.urgentSwitch.isOn,
            room: viewController.roomPicker.selectedValue.flatMap { $0.isEmpty ? nil : $0 })
        viewController.newChoreField.text = ""
    }

    private func configure(_ chores: [Chore]) {
        viewController.summaryLabel.text = "\(chores.count) chores"
        viewController.choresList.update(with: chores, id: \.id) { _ in
            ChoreRow()
        } configureRow: { [book, bag = viewController.bag] row, chore in
            guard let row = row as? ChoreRow else { return }
            if row.titleLabel.text.isEmpty {
                let id = chore.id
                bag.insert(row.doneButton.rx.tap.bind(onNext: { book.done(id) }))
            }
            row.titleLabel.text = chore.title
        }
    }
}

/// The chores app on an ephemeral port: `/chores`.
struct ChoresApp {
    let application: Application
    let book = ChoreBook()
    /// The browser the test drives: its cookies last as long as the app.
    private let browser = LiveClient(port: 0)
    var client: LiveClient { LiveClient(port: application.port, sameBrowserAs: browser) }

    init(operations: OperationsConfiguration = OperationsConfiguration()) throws {
        var server = ServerConfiguration()
        server.port = 0
        application = try Application(root: fixtureRoot + "/Forms", server: server, operations: operations)
        let book = book
        try application.screen("/chores", ChoresViewController.self) { _ in book.make() }
        try application.start()
    }

    func open() throws -> LivePage {
        let response = try client.get("/chores")
        guard response.status == 200 else { throw LiveClientError(description: "GET /chores: \(response.status)") }
        return LivePage(response)
    }
}
