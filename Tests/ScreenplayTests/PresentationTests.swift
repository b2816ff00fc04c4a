import Foundation
import HTTPServer
import Reactive
import Screenplay
import ScreenplayTesting
import Synchronization
import Testing
import ViewKit

/// A screen that asks before it empties its trash (an alert) and shows a note (a plain presented controller).
private final class TrashViewController: ViewController {
    @Outlet("countLabel") var countLabel: Label
    @Outlet("emptyButton") var emptyButton: Button
    @Outlet("noteButton") var noteButton: Button
    var trash: Trash?

    override func viewDidLoad() {
        guard let trash else { return }
        title = "Trash"
        trash.count.bind(onNext: { [unowned self] in countLabel.text = "\($0) items" }).disposed(by: bag)
        emptyButton.rx.tap.bind(onNext: { [unowned self] in askToEmpty() }).disposed(by: bag)
        noteButton.rx.tap.bind(onNext: { [unowned self] in
            let note = NoteViewController()
            note.journal = trash.journal
            present(note, animated: true)
        }).disposed(by: bag)
    }

    private func askToEmpty() {
        guard let trash else { return }
        let alert = AlertController(title: "Empty the trash?", message: "Its items cannot be brought back.")
        alert.addAction(AlertAction(title: "Cancel", style: .cancel) { _ in trash.journal.log("cancelled") })
        alert.addAction(AlertAction(title: "Empty", style: .destructive) { _ in trash.count.accept(0) })
        present(alert, animated: true)
    }
}

/// A presented controller with a view built in code and a lifecycle journal.
private final class NoteViewController: ViewController {
    var journal: Journal?
    override func loadView() {
        let root = View(tagName: "article")
        root.addSubview(Label(text: "A note", tagName: "h2"))
        setView(root)
    }
    override func viewDidLoad() {
        bag.insert(Disposables.create { [journal] in journal?.log("note disposed") })
    }
    override func viewWillAppear(_ animated: Bool) { journal?.log("note willAppear") }
    override func viewDidAppear(_ animated: Bool) { journal?.log("note didAppear") }
    override func viewWillDisappear(_ animated: Bool) { journal?.log("note willDisappear") }
    override func viewDidDisappear(_ animated: Bool) { journal?.log("note didDisappear") }
}

private final class Journal: Sendable {
    let entries = Mutex<[String]>([])
    func log(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

private final class Trash: Sendable {
    let count = BehaviorRelay(value: 3)
    let journal = Journal()
}

/// The trash app on an ephemeral port: `/trash`.
private struct TrashApp {
    let application: Application
    let trash = Trash()
    private let browser = LiveClient(port: 0)
    var client: LiveClient { LiveClient(port: application.port, sameBrowserAs: browser) }

    init() throws {
        var server = ServerConfiguration()
        server.port = 0
        application = try Application(root: fixtureRoot + "/Forms", server: server)
        let trash = trash
        try application.screen("/trash", TrashViewController.self) { _ in
            let viewController = TrashViewController()
            viewController.trash = trash
            return viewController
        }
        try application.start()
    }

    func open(_ target: String = "/trash") throws -> LivePage {
        let response = try client.get(target)
        guard response.status == 200 else { throw LiveClientError(description: "GET \(target): \(response.status)") }
        return LivePage(response)
    }
}

/// Modal presentation over real sockets: an alert presented by an action, its buttons, Escape's cancel, the page
/// behind inert, and the same without JavaScript as pages of their own with their own URLs.
@Suite struct PresentationTests {
    private let script = ["X-Requested-With": "fetch"]

    /// The path of a presented controller's action: not on the page as first rendered.
    private func post(_ page: LivePage, _ action: String) -> String {
        "/screens/\(page.sessionID!)/actions/\(action)"
    }

    @Test func anActionPresentsAnAlertAsANamedModalDialogAndItsDestructiveActionRunsAfterItCloses() throws {
        let app = try TrashApp()
        defer { app.application.stop() }
        let page = try app.open()
        #expect(!page.html.contains("<dialog"))
        let events = try app.client.openEvents(for: page)
        defer { events.close() }
        let csrf = page.csrfToken!
        #expect(try app.client.post(page.actionPath("empty")!, form: ["csrf": csrf], headers: script).status == 204)
        let shown = try #require(try events.next { $0.event == "patch" }).data
        #expect(shown.contains("<dialog"))
        #expect(shown.contains("data-modal"))
        #expect(shown.contains(#"role=\"alertdialog\""#))
        #expect(shown.contains(#"data-cancel=\"sp-alert-0\""#))
        #expect(shown.contains(">Cancel</button>") && shown.contains(">Empty</button>"))
        #expect(shown.contains("sp-destructive"))
        // The dialog is named by the alert's heading, and described by its message.
        let labelledBy = try #require(shown.firstMatch(of: /aria-labelledby=\\"(v\d+)\\"/)?.output.1)
        #expect(shown.contains(#"<h2 id=\"\#(labelledBy)\">Empty the trash?</h2>"#))
        #expect(shown.contains("aria-describedby"))
        // The page behind is inert: its actions are not reached while the alert is up.
        #expect(try app.client.post(page.actionPath("note")!, form: ["csrf": csrf], headers: script).status == 404)
        #expect(app.trash.count.value == 3)
        #expect(
            try app.client.post(post(page, "sp-alert-1"), form: ["csrf": csrf], headers: script).status == 204)
        let closed = try #require(try events.next { $0.event == "patch" }).data
        #expect(!closed.contains("<dialog"))
        #expect(closed.contains("0 items"))
        #expect(app.trash.count.value == 0)
    }

    @Test func escapesCancelIsTheCancelActionAndChangesNothing() throws {
        let app = try TrashApp()
        defer { app.application.stop() }
        let page = try app.open()
        let events = try app.client.openEvents(for: page)
        defer { events.close() }
        let csrf = page.csrfToken!
        _ = try app.client.post(page.actionPath("empty")!, form: ["csrf": csrf], headers: script)
        _ = try events.next { $0.event == "patch" }
        // The client's Escape posts the action `data-cancel` names.
        #expect(
            try app.client.post(post(page, "sp-alert-0"), form: ["csrf": csrf], headers: script).status == 204)
        let closed = try #require(try events.next { $0.event == "patch" }).data
        #expect(!closed.contains("<dialog"))
        #expect(app.trash.journal.all == ["cancelled"])
        #expect(app.trash.count.value == 3)
        // The page behind is live again.
        #expect(try app.client.post(page.actionPath("empty")!, form: ["csrf": csrf], headers: script).status == 204)
    }

    @Test func withoutJavaScriptTheAlertIsAPageOfItsOwnURLAndItsButtonsPostBack() throws {
        let app = try TrashApp()
        defer { app.application.stop() }
        let page = try app.open()
        let sid = page.sessionID!, csrf = page.csrfToken!
        let asked = try app.client.post(page.actionPath("empty")!, form: ["csrf": csrf])
        #expect(asked.status == 303)
        #expect(asked.header("Location") == "/trash?screen=\(sid)&modal=1")
        let confirmation = try app.client.get(asked.header("Location")!)
        #expect(confirmation.status == 200)
        // Rendered open, so it shows without the script; the stylesheet shows it alone.
        #expect(confirmation.text.contains(#"<dialog "#) && confirmation.text.contains(" open"))
        #expect(confirmation.text.contains(">Cancel</button>") && confirmation.text.contains(">Empty</button>"))
        #expect(app.trash.count.value == 3, "asking alone changes nothing")
        let cancelled = try app.client.post(post(page, "sp-alert-0"), form: ["csrf": csrf])
        #expect(cancelled.header("Location") == "/trash?screen=\(sid)")
        let back = try app.client.get(cancelled.header("Location")!)
        #expect(!back.text.contains("<dialog"))
        #expect(back.text.contains("3 items"))
        _ = try app.client.post(page.actionPath("empty")!, form: ["csrf": csrf])
        let emptied = try app.client.post(post(page, "sp-alert-1"), form: ["csrf": csrf])
        #expect(emptied.header("Location") == "/trash?screen=\(sid)")
        #expect(try app.client.get(emptied.header("Location")!).text.contains("0 items"))
    }

    @Test func aScreensOwnURLShowsAFreshScreenWhenItsSessionIsGoneOrAnotherBrowsers() throws {
        let app = try TrashApp()
        defer { app.application.stop() }
        let page = try app.open()
        let sid = page.sessionID!
        _ = try app.client.post(page.actionPath("empty")!, form: ["csrf": page.csrfToken!])
        // Another browser asking for this screen's URL gets a fresh screen of it, not this browser's.
        let stranger = LiveClient(port: app.application.port)
        let theirs = LivePage(try stranger.get("/trash?screen=\(sid)&modal=1"))
        #expect(theirs.sessionID != sid)
        #expect(theirs.screenURL == "/trash")
        #expect(!theirs.html.contains("<dialog"))
        // A session that never was (expired, or held by an instance since restarted): a fresh screen, no error.
        let gone = try app.client.get("/trash?screen=AAAAAAAAAAAAAAAAAAAAAA")
        #expect(gone.status == 200)
        #expect(LivePage(gone).screenURL == "/trash")
        // This browser's own URL shows its screen, the alert still up.
        #expect(try app.open("/trash?screen=\(sid)&modal=1").sessionID == sid)
    }

    @Test func aPresentedControllerHasItsOwnLifecycleAndCloseDismissesIt() throws {
        let app = try TrashApp()
        defer { app.application.stop() }
        let page = try app.open()
        let events = try app.client.openEvents(for: page)
        defer { events.close() }
        let csrf = page.csrfToken!
        let noted = try app.client.post(page.actionPath("note")!, form: ["csrf": csrf], headers: script)
        #expect(noted.status == 204, "\(noted.text)")
        let shown = try #require(try events.next { $0.event == "patch" }).data
        #expect(shown.contains(">A note</h2>"))
        #expect(shown.contains(#"data-cancel=\"sp-dismiss\""#))
        #expect(shown.contains(">Close</button>"))
        #expect(app.trash.journal.all == ["note willAppear", "note didAppear"])
        #expect(try app.client.post(post(page, "sp-dismiss"), form: ["csrf": csrf], headers: script).status == 204)
        let closed = try #require(try events.next { $0.event == "patch" }).data
        #expect(!closed.contains("<dialog"))
        #expect(
            app.trash.journal.all == [
                "note willAppear", "note didAppear", "note willDisappear", "note didDisappear", "note disposed",
            ])
    }
}
