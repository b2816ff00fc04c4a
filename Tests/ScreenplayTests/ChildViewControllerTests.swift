import Foundation
import Reactive
import Screenplay
import ScreenplayTesting
import Synchronization
import Testing
import ViewKit

/// What the parent and child controllers of these tests did, in order.
private final class Journal: Sendable {
    let entries = Mutex<[String]>([])
    func log(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

private final class ShelfViewController: ViewController {
    @Outlet("strip") var strip: View
    @Outlet("heading") var heading: Label
    var journal: Journal?
    override func viewWillAppear(_ animated: Bool) { journal?.log("parent willAppear") }
    override func viewDidAppear(_ animated: Bool) { journal?.log("parent didAppear") }
    override func viewWillDisappear(_ animated: Bool) { journal?.log("parent willDisappear") }
}

private final class StripViewController: ViewController {
    @Outlet("label") var label: Label
    var journal: Journal?
    let text = BehaviorRelay(value: "first")
    override func viewDidLoad() {
        journal?.log("child didLoad")
        // The child's own binding, in its own bag.
        text.bind(onNext: { [unowned self] in label.text = $0 }).disposed(by: bag)
        bag.insert(Disposables.create { [journal] in journal?.log("child disposed") })
    }
    override func viewWillAppear(_ animated: Bool) { journal?.log("child willAppear") }
    override func viewDidAppear(_ animated: Bool) { journal?.log("child didAppear") }
    override func viewWillDisappear(_ animated: Bool) { journal?.log("child willDisappear") }
    override func viewDidDisappear(_ animated: Bool) { journal?.log("child didDisappear") }
    override func willMove(toParent parent: ViewController?) {
        journal?.log("child willMove(\(parent == nil ? "nil" : "parent"))")
    }
    override func didMove(toParent parent: ViewController?) {
        super.didMove(toParent: parent)
        journal?.log("child didMove(\(parent == nil ? "nil" : "parent"))")
    }
}

@Suite struct ChildViewControllerTests {
    private func templates() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("children-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: fixtureTemplates + "/layout.html", toPath: directory.appendingPathComponent("layout.html").path)
        try Data(#"<section><h1 data-outlet="heading">Shelf</h1><div data-outlet="strip"></div></section>"#.utf8)
            .write(to: directory.appendingPathComponent("Shelf.html"))
        try Data(#"<aside class="strip"><p data-outlet="label">…</p></aside>"#.utf8)
            .write(to: directory.appendingPathComponent("Strip.html"))
        return directory.path
    }

    private func makeHarness(journal: Journal, addAtLoad: Bool) throws -> ScreenHarness {
        let directory = try templates()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        return try ScreenHarness(templates: directory, appear: false) { _ in
            let parent = ShelfViewController()
            parent.journal = journal
            if addAtLoad {
                let child = StripViewController()
                child.journal = journal
                parent.addChild(child, in: parent.strip)
            }
            return parent
        }
    }

    @Test func aChildLoadsItsOwnTemplateAndFollowsItsParentsLifecycle() throws {
        let journal = Journal()
        let harness = try makeHarness(journal: journal, addAtLoad: true)
        harness.appear()
        #expect(
            journal.all == [
                "child willMove(parent)", "child didLoad", "child didMove(parent)", "parent willAppear",
                "child willAppear", "parent didAppear", "child didAppear",
            ])
        #expect(harness.screenHTML.contains(#"class="strip"><p"#))
        #expect(harness.screenHTML.contains(">first</p>"))
        harness.end()
        #expect(
            journal.all.suffix(4) == [
                "parent willDisappear", "child willDisappear", "child didDisappear", "child disposed",
            ])
    }

    @Test func aChildsChangesArePatchesOfItsOwnSubtree() throws {
        let journal = Journal()
        let harness = try makeHarness(journal: journal, addAtLoad: true)
        harness.appear()
        harness.clearEvents()
        let labelID = harness.onScreen(ShelfViewController.self) { parent -> String in
            let child = parent.children[0] as! StripViewController
            child.text.accept("second")
            return child.label.domID
        }
        #expect(harness.patches.count == 1)
        #expect(harness.patches.first?.count == 1)
        if case .replace(let id, let html)? = harness.patches.first?.first {
            #expect(id == labelID)
            #expect(String(decoding: html, as: UTF8.self).contains("second"))
        } else {
            Issue.record("expected one replacement of the child's label")
        }
    }

    @Test func aChildAddedLaterCatchesUpAndARemovedOneDisappearsAndIsDisposed() throws {
        let journal = Journal()
        let harness = try makeHarness(journal: journal, addAtLoad: false)
        harness.appear()
        harness.onScreen(ShelfViewController.self) { parent in
            let child = StripViewController()
            child.journal = journal
            parent.addChild(child, in: parent.strip)
            #expect(parent.children.count == 1)
            #expect(child.parent === parent)
        }
        #expect(
            journal.all.suffix(5) == [
                "child willMove(parent)", "child didLoad", "child willAppear", "child didAppear",
                "child didMove(parent)",
            ])
        #expect(harness.screenHTML.contains(">first</p>"))
        harness.onScreen(ShelfViewController.self) { parent in
            let child = parent.children[0]
            child.willMove(toParent: nil)
            child.removeFromParent()
            #expect(parent.children.isEmpty)
            #expect(child.parent == nil)
        }
        #expect(
            journal.all.suffix(5) == [
                "child willMove(nil)", "child willDisappear", "child didDisappear", "child disposed",
                "child didMove(nil)",
            ])
        #expect(!harness.screenHTML.contains("<aside"))
        #expect(harness.programmerErrors.isEmpty)
    }

    @Test func addingAControllerToItselfIsAReportedMistakeNotATrap() throws {
        let journal = Journal()
        let harness = try makeHarness(journal: journal, addAtLoad: false)
        harness.onScreen(ShelfViewController.self) { parent in
            parent.addChild(parent)
            #expect(parent.children.isEmpty)
        }
        #expect(harness.programmerErrors.count == 1)
        #expect(harness.programmerErrors.first?.description.contains("is the controller itself") == true)
    }

    /// A view controller's parent and navigation controller are not weak references (no side table a screen): a
    /// child that app code keeps after its parent has gone, or a controller kept after its navigation controller,
    /// reads nil, as a weak reference would, and a child finds its parent's navigation controller.
    @Test func aControllerKeptLongerThanItsParentOrNavigationControllerSeesNeither() {
        let top = ViewController()
        let child = ViewController()
        let grandchild = ViewController()
        var navigation: NavigationController? = NavigationController(
            topViewController: top, navigationBar: nil, backURL: "/")
        top.addChild(child)
        child.addChild(grandchild)
        #expect(child.navigationController === navigation)
        #expect(grandchild.navigationController === navigation)
        #expect(grandchild.parent === child)
        navigation = nil
        #expect(top.navigationController == nil)
        #expect(grandchild.navigationController == nil)

        var parent: ViewController? = ViewController()
        let kept = ViewController()
        parent?.addChild(kept)
        #expect(kept.parent === parent)
        parent = nil
        #expect(kept.parent == nil)
        // Let go by its parent before that: nothing of the parent is left in it either.
        let other = ViewController()
        let removed = ViewController()
        other.addChild(removed)
        removed.removeFromParent()
        #expect(removed.parent == nil)
        #expect(other.children.isEmpty)
    }
}
