import Foundation
import Screenplay
import ScreenplayTesting
import Testing
import TodoApp

@Suite struct TodoListScreenTests {
    @Test func rendersTheListWithWhoAddedEachItemAndItsDoneButton() throws {
        let store = TodoStore()
        store.add("Water the plants", by: "alice")
        store.add("Buy milk", by: "bob")
        store.markDone(1)
        let harness = try makeHarness(store: store)
        assertSnapshot(of: harness.page, as: .html)
    }

    @Test func theHeadingsBadgeOfTheAppsOwnKindCountsTheItemsLeft() throws {
        let store = TodoStore()
        store.add("Water the plants", by: "alice")
        store.add("Buy milk", by: "bob")
        let harness = try makeHarness(store: store)
        #expect(harness.screenHTML.contains(#"class="badge badge-open" data-outlet="leftBadge">2 left</span></h1>"#))
        store.markDone(1)
        harness.settle()
        #expect(harness.screenHTML.contains(#"data-outlet="leftBadge">1 left</span>"#))
    }

    @Test func aTemplateNamingTheBadgeFailsToLoadWithoutTheAppsRegistration() throws {
        #expect(throws: TemplateError.self) {
            _ = try ScreenHarness(templates: TodoServer.resourceRoot + "/Templates", url: "/todos") { _ in
                TodoListViewController.make(store: TodoStore(), user: "alice")
            }
        }
    }

    @Test func addingAnItemShowsItAndClearsTheField() throws {
        let store = TodoStore()
        let harness = try makeHarness(store: store, user: "alice")
        harness.type("title", "Buy milk")
        #expect(harness.tap("add"))
        #expect(rowTitles(in: harness.screenHTML) == ["Buy milk"])
        #expect(harness.screenHTML.contains("added by alice"))
        #expect(titleFieldValue(in: harness.screenHTML) == "")
        #expect(store.items.map(\.title) == ["Buy milk"])
        #expect(harness.screenHTML.contains("1 item."))
    }

    @Test func addingNothingSaysSoAndAddsNothing() throws {
        let store = TodoStore()
        let harness = try makeHarness(store: store)
        harness.type("title", "   ")
        #expect(harness.tap("add"))
        #expect(store.items.isEmpty)
        #expect(harness.screenHTML.contains("Name the item first."))
        harness.type("title", "Dishes")
        #expect(harness.tap("add"))
        #expect(!harness.screenHTML.contains("Name the item first."))
    }

    @Test func doneMarksTheRowOfThatIdentityOnly() throws {
        let store = TodoStore()
        for title in ["Dishes", "Laundry", "Plants"] { store.add(title, by: "bob") }
        let harness = try makeHarness(store: store)
        harness.clearEvents()
        #expect(harness.tap("done", row: 2))
        #expect(rowTitles(in: harness.screenHTML) == ["Dishes", "Laundry (done)", "Plants"])
        #expect(store.items.map(\.isDone) == [false, true, false])
        // One patch, replacing that row only.
        #expect(harness.patches.count == 1)
        // A done row's button is gone; a row that is no longer there runs nothing.
        #expect(!harness.tap("done", row: 2))
        #expect(!harness.tap("done", row: 42))
    }

    @Test func clearDoneRemovesTheDoneItemsAndIsOffWithNoneDone() throws {
        let store = TodoStore()
        for title in ["Dishes", "Laundry", "Plants"] { store.add(title, by: "bob") }
        let harness = try makeHarness(store: store)
        #expect(!harness.tap("clearDone"))
        #expect(harness.tap("done", row: 1))
        #expect(harness.tap("done", row: 3))
        #expect(harness.tap("clearDone"))
        #expect(rowTitles(in: harness.screenHTML) == ["Laundry"])
        #expect(store.items.map(\.id) == [2])
        #expect(!harness.tap("clearDone"))
    }

    @Test func aChangeOnOneScreenReachesAnotherScreenOnTheSameStore() throws {
        let store = TodoStore()
        let alice = try makeHarness(store: store, user: "alice")
        let bob = try makeHarness(store: store, user: "bob")
        bob.type("title", "Half-typed")
        bob.advance(by: ScreenHarness.debounce)
        bob.clearEvents()
        alice.type("title", "Buy milk")
        #expect(alice.tap("add"))
        // The change reaches Bob's screen on its own scheduler: poll until it has run there.
        #expect(eventually { rowTitles(in: bob.screenHTML) == ["Buy milk"] })
        #expect(bob.screenHTML.contains("added by alice"))
        #expect(!bob.patches.isEmpty)
        #expect(alice.tap("done", row: 1))
        #expect(eventually { rowTitles(in: bob.screenHTML) == ["Buy milk (done)"] })
        #expect(bob.tap("clearDone"))
        #expect(eventually { rowTitles(in: alice.screenHTML).isEmpty })
        // What Bob typed and has not added is his own: Alice's changes never touched his field.
        #expect(titleFieldValue(in: bob.screenHTML) == "Half-typed")
        #expect(bob.tap("add"))
        #expect(eventually { rowTitles(in: alice.screenHTML) == ["Half-typed"] })
        #expect(store.items.map(\.addedBy) == ["bob"])
    }
}

/// Whether `condition` holds within `timeout`, polled.
func eventually(timeout: Duration = .seconds(5), _ condition: () -> Bool) -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.005)
    }
    return condition()
}
