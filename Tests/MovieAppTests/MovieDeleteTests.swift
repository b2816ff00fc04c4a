import Screenplay
import ScreenplayTesting
import Synchronization
import Testing

@testable import MovieApp

/// The ids a test's catalog was asked to delete.
private final class Deletions: Sendable {
    let ids = Mutex<[Int]>([])
    var all: [Int] { ids.withLock { $0 } }
    func delete(_ id: Int) { ids.withLock { $0.append(id) } }
}

/// The edit screen's Delete: a confirmation alert presented over the form, in virtual time, each step snapshotted.
@Suite("MovieEdit: Delete asks first, then deletes and goes to the list")
struct MovieDeleteTests {
    @Test("Delete presents an alert naming the movie; Escape and Cancel close it, delete nothing, stay")
    func askingDeletesNothing() throws {
        let deletions = Deletions()
        let harness = try MovieScreens().edit(1, deleteMovie: { deletions.delete($0) })
        #expect(!harness.isPresenting)
        #expect(harness.tap("delete"))
        #expect(harness.isPresenting)
        let dialog = try #require(harness.presentedHTML)
        #expect(dialog.contains(#"role="alertdialog""#))
        #expect(dialog.contains("Delete “The Lighthouse Accountant”?"))
        #expect(dialog.contains(">Cancel</button>") && dialog.contains(">Delete</button>"))
        assertSnapshot(of: dialog, as: .html, named: "deleteAlert")
        // The form behind is inert while the alert is up.
        #expect(!harness.tap("save"))
        #expect(harness.pressEscape())
        #expect(!harness.isPresenting)
        #expect(harness.tap("delete"))
        #expect(harness.tapAlertAction("Cancel"))
        #expect(!harness.isPresenting)
        #expect(deletions.all.isEmpty)
        #expect(harness.navigations.isEmpty)
        #expect(harness.tap("save"), "the form is live again")
    }

    @Test("confirming deletes the movie and the flow lands on the list")
    func confirmingDeletes() throws {
        let deletions = Deletions()
        let screens = try MovieScreens()
        let flow = screens.flow(deleteMovie: { deletions.delete($0) })
        _ = try flow.open("/movies/1")
        let edit = try flow.open("/movies/1/edit")
        #expect(edit.tap("delete"))
        #expect(edit.tapAlertAction("Delete"))
        #expect(deletions.all == [1])
        #expect(edit.navigations == ["/"])
        let list = try flow.follow()
        #expect(flow.url == "/")
        #expect(list.page.contains("<h1>Movies</h1>"))
        #expect(edit.page.isEmpty, "the edit screen ended, its alert with it")
    }

    @Test("a catalog that cannot delete says so, and the screen stays")
    func withoutDeletion() throws {
        let harness = try MovieScreens().edit(1)
        #expect(harness.tap("delete"))
        #expect(harness.tapAlertAction("Delete"))
        #expect(!harness.isPresenting)
        #expect(harness.navigations.isEmpty)
        #expect(harness.screenHTML.contains("Movies cannot be deleted from this catalog."))
    }

    @Test("an alert without such an action, or nothing presented: nothing tapped")
    func nothingToTap() throws {
        let harness = try MovieScreens().edit(1)
        #expect(!harness.pressEscape())
        #expect(!harness.tapAlertAction("Delete"))
        #expect(harness.presentedHTML == nil)
        #expect(harness.tap("delete"))
        #expect(!harness.tapAlertAction("Archive"))
        #expect(harness.isPresenting)
    }
}
