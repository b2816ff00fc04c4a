import Screenplay
import ScreenplayTesting
import TestSupport
import Testing

@testable import MovieApp

/// The edit screen's Delete: a confirmation alert presented over the form, in virtual time, each step snapshotted.
@Suite("MovieEdit: Delete asks first, then deletes and goes to the list")
struct MovieDeleteTests {
    @Test("Delete presents an alert naming the movie; Escape and Cancel close it, delete nothing, stay")
    func askingDeletesNothing() throws {
        let screens = try MovieScreens()
        let harness = try screens.edit(1)
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
        #expect(try screens.store.movie(id: 1) != nil)
        #expect(harness.navigations.isEmpty)
        #expect(harness.tap("save"), "the form is live again")
    }

    @Test("confirming deletes the movie from the store and the flow lands on the list, which no longer shows it")
    func confirmingDeletes() throws {
        let screens = try MovieScreens()
        let flow = screens.flow()
        _ = try flow.open("/movies/1")
        let edit = try flow.open("/movies/1/edit")
        #expect(edit.tap("delete"))
        #expect(edit.tapAlertAction("Delete"))
        #expect(try screens.store.movie(id: 1) == nil)
        #expect(edit.navigations == ["/"])
        let list = try flow.follow()
        #expect(flow.url == "/")
        #expect(list.page.contains("<h1>Movies</h1>"))
        #expect(!list.page.contains(#"href="/movies/1""#))
        #expect(edit.page.isEmpty, "the edit screen ended, its alert with it")
    }

    @Test("an edit screen of a movie deleted elsewhere goes to the list, once")
    func deletedElsewhereLeavesTheForm() throws {
        let screens = try MovieScreens()
        let harness = try screens.edit(3)
        #expect(harness.navigations.isEmpty)
        try screens.store.delete(id: 3)
        #expect(
            eventually {
                harness.settle()
                return harness.navigations == ["/"]
            })
        // The user's own Delete after it does not go a second time.
        #expect(harness.tap("delete"))
        #expect(harness.tapAlertAction("Delete"))
        harness.settle()
        #expect(harness.navigations == ["/"])
    }

    @Test("a movie deleted meanwhile: confirming goes to the list all the same")
    func deletedMeanwhile() throws {
        let screens = try MovieScreens()
        let harness = try screens.edit(2)
        #expect(harness.tap("delete"))
        try screens.store.delete(id: 2)
        #expect(harness.tapAlertAction("Delete"))
        #expect(harness.navigations == ["/"])
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
