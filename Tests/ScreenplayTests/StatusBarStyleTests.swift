import Screenplay
import ScreenplayTesting
import Testing
import ViewKit

/// The layout shows the view controller's status bar style.
@Suite struct StatusBarStyleTests {
    /// The status bar style's class on `<html>`: the style's alone on a layout without classes of its own, the other
    /// style's gone when it changes.
    @Test func thePageTakesTheStatusBarStylesClassAndChangesIt() throws {
        let harness = try ScreenHarness(templates: fixtureTemplates) { _ in
            let controller = CounterViewController()
            controller.statusBarStyle = .lightContent
            return controller
        }
        #expect(harness.page.contains(#"<html id="v1" class="status-light" lang="en""#))
        harness.onScreen(CounterViewController.self) { $0.statusBarStyle = .default }
        harness.settle()
        #expect(harness.page.contains(#"<html id="v1" class="status-default" lang="en""#))
        #expect(!harness.page.contains("status-light"))
    }

    /// A change of the page's own element goes as a `reset`; a title changed in the same turn still goes as its own
    /// `title` event, and no patch follows.
    @Test func aStyleChangeIsAResetAndATitleChangedWithItItsOwnEvent() throws {
        let harness = try ScreenHarness(templates: fixtureTemplates) { _ in CounterViewController() }
        harness.clearEvents()
        harness.onScreen(CounterViewController.self) { controller in
            controller.statusBarStyle = .lightContent
            controller.title = "Elsewhere"
        }
        harness.settle()
        #expect(harness.patches.isEmpty, "\(harness.events)")
        #expect(harness.events.count { if case .reset = $0 { true } else { false } } == 1, "\(harness.events)")
        #expect(harness.events.contains(.title("Elsewhere")))
        #expect(harness.page.contains("status-light"))
    }

    /// The title goes as a `title` event when its text differs from the one sent, and only then: whatever the
    /// controller is told of (a title set to other text, a status bar style changed) the flush compares; a title set
    /// back to the text sent in the same turn, or set to the text it has, sends nothing.
    @Test func aTitleGoesWhenItsTextDiffersFromTheOneSent() throws {
        let factory = CounterFactory()
        let harness = try ScreenHarness(templates: fixtureTemplates) { factory.make($0) }
        func titles() -> [String] {
            harness.events.compactMap { if case .title(let title) = $0 { title } else { nil } }
        }
        harness.clearEvents()
        harness.onScreen(CounterViewController.self) { $0.title = "First" }
        harness.settle()
        #expect(titles() == ["First"], "\(harness.events)")
        harness.clearEvents()
        harness.onScreen(CounterViewController.self) { controller in
            controller.title = "Second"
            controller.title = "First"
        }
        harness.settle()
        #expect(titles().isEmpty, "\(harness.events)")
        harness.onScreen(CounterViewController.self) { $0.title = "First" }
        harness.settle()
        #expect(titles().isEmpty, "\(harness.events)")
        harness.onScreen(CounterViewController.self) { $0.statusBarStyle = .lightContent }
        harness.settle()
        #expect(titles().isEmpty, "\(harness.events)")
        harness.tap("burst")
        #expect(titles() == ["Counter 10"], "\(harness.events)")
        harness.clearEvents()
        harness.tap("burst")
        #expect(titles() == ["Counter 20"], "\(harness.events)")
        harness.clearEvents()
        harness.onScreen(CounterViewController.self) { controller in
            controller.statusBarStyle = .default
            controller.title = "Third"
        }
        harness.settle()
        #expect(titles() == ["Third"], "\(harness.events)")
    }
}
