import Reactive
import Screenplay
import ScreenplayTesting
import Synchronization
import TestSupport
import Testing
import ViewKit

@Suite struct LifecycleTests {
    @Test func runsTheLifecycleInOrderFromLoadToDisposal() throws {
        let factory = CounterFactory()
        let harness = try ScreenHarness(templates: fixtureTemplates, appear: false) { factory.make($0) }
        #expect(
            harness.onScreen(CounterViewController.self) { $0.lifecycleLog }
                == ["viewDidLoad", "viewWillAppear(false)"])
        harness.appear()
        harness.appear()
        #expect(
            harness.onScreen(CounterViewController.self) { $0.lifecycleLog.last } == "viewDidAppear(false)")
        let log = harness.onScreen(CounterViewController.self) { controller in
            controller.lifecycleLog.filter { $0.hasPrefix("viewDidAppear") }.count
        }
        #expect(log == 1)
    }

    @Test func emitsTheRxLifecycleEventsAfterTheMethods() throws {
        let harness = try ScreenHarness(templates: fixtureTemplates, appear: false) { _ in
            let controller = CounterViewController()
            controller.rx.viewWillAppear.subscribe(onNext: { [unowned controller] in
                controller.lifecycleLog.append("rx.viewWillAppear(\($0))")
            }).disposed(by: controller.bag)
            controller.rx.viewDidAppear.subscribe(onNext: { [unowned controller] in
                controller.lifecycleLog.append("rx.viewDidAppear(\($0))")
            }).disposed(by: controller.bag)
            return controller
        }
        harness.appear()
        let log = harness.onScreen(CounterViewController.self) { $0.lifecycleLog }
        #expect(
            log == [
                "viewDidLoad", "viewWillAppear(false)", "rx.viewWillAppear(false)", "viewDidAppear(false)",
                "rx.viewDidAppear(false)",
            ])
    }

    @Test func endingTheScreenDisappearsDisposesAndFreesEverything() throws {
        let freed = Atomic<Int>(0)
        let factory = CounterFactory()
        let relay = TestMutex<BehaviorRelay<Int>?>(nil)
        let harness = try ScreenHarness(templates: fixtureTemplates) { request in
            let controller = factory.make(request, onDeinit: { freed.add(1, ordering: .relaxed) })
            relay.withLock { $0 = factory.createdRelays.last }
            return controller
        }
        let weakView = harness.onScreen(CounterViewController.self) { controller in
            WeakBox(controller.countLabel)
        }
        harness.end()
        harness.settle()
        #expect(freed.load(ordering: .relaxed) == 1)
        #expect(weakView.isNil)
        // The driver's relay no longer reaches the disposed screen.
        relay.withLock { $0?.accept(99) }
        #expect(harness.events.isEmpty || !harness.eventStreamText.contains("99"))
    }

    @Test func theSeedBinderBindsStateAndActions() throws {
        let factory = CounterFactory()
        let harness = try ScreenHarness(templates: fixtureTemplates) { factory.make($0) }
        #expect(harness.screenHTML.contains(">0</p>"))
        #expect(harness.tap("increment"))
        #expect(harness.onScreen(CounterViewController.self) { $0.countLabel.text } == "1")
        #expect(harness.onScreen(CounterViewController.self) { $0.navigationController?.isNavigationBarHidden } == true)
        #expect(!harness.tap("nonexistent"))
    }

    @Test func aBurstOfChangesInOneTurnIsOnePatch() throws {
        let factory = CounterFactory()
        let harness = try ScreenHarness(templates: fixtureTemplates) { factory.make($0) }
        harness.clearEvents()
        harness.tap("burst")
        #expect(harness.patches.count == 1)
        #expect(harness.onScreen(CounterViewController.self) { $0.countLabel.text } == "10")
        guard case .patch(let changes)? = harness.events.first else {
            Issue.record("expected a patch first, got \(harness.events)")
            return
        }
        #expect(changes.count == 1, "\(changes)")
        #expect(harness.events.contains(.title("Counter 10")))
    }

    @Test func popNavigatesToTheParentURL() throws {
        let factory = CounterFactory()
        let harness = try ScreenHarness(templates: fixtureTemplates, parent: "/list") { factory.make($0) }
        harness.tap("leave")
        #expect(harness.navigations == ["/list"])
    }

    @Test func aMissingOutletFailsAtRegistrationWithTheTemplateAndOutletNamed() throws {
        final class BrokenViewController: ViewController {
            @Outlet("missingLabel") var missingLabel: Label
            override class var templateName: String { "Counter" }
        }
        let app = try TestApp(start: false)
        #expect {
            try app.application.screen("/broken", BrokenViewController.self) { _ in BrokenViewController() }
        } throws: { error in
            let text = String(describing: error)
            return text.contains("Counter.html") && text.contains("missingLabel")
        }
    }

    @Test func aMistypedOutletFailsAtRegistration() throws {
        final class MistypedViewController: ViewController {
            @Outlet("countLabel") var countLabel: Button
            override class var templateName: String { "Counter" }
        }
        let app = try TestApp(start: false)
        #expect(throws: (any Error).self) {
            try app.application.screen("/mistyped", MistypedViewController.self) { _ in MistypedViewController() }
        }
    }

    /// A controller nothing observes keeps no lifecycle subjects once its view has loaded; one subscribed later is
    /// still called, and a load action registered after the load never runs, as before.
    @Test func aControllerNothingObservesKeepsNoLifecycleAndALaterSubscriberIsCalled() {
        let controller = ViewWithoutTemplateController()
        var ran: [String] = []
        controller.whenViewLoaded { ran.append("loaded") }
        controller.loadViewIfNeeded()
        #expect(ran == ["loaded"])
        #expect(!controller.holdsLifecycle)
        controller.whenViewLoaded { ran.append("late") }
        #expect(!controller.holdsLifecycle)
        let subscription = controller.rx.viewDidAppear.subscribe(onNext: { ran.append("didAppear(\($0))") })
        controller.performViewDidAppear(true)
        #expect(ran == ["loaded", "didAppear(true)"])
        #expect(controller.holdsLifecycle)
        subscription.dispose()

        let observed = ViewWithoutTemplateController()
        let willAppear = observed.rx.viewWillAppear.subscribe(onNext: { ran.append("willAppear(\($0))") })
        observed.loadViewIfNeeded()
        observed.performViewWillAppear(false)
        #expect(observed.holdsLifecycle)
        #expect(ran.last == "willAppear(false)")
        willAppear.dispose()
    }
}

/// A view controller whose view is made in code.
private final class ViewWithoutTemplateController: ViewController {
    override func loadView() { setView(View()) }
}

/// A weak reference that can be carried out of the screen's scheduler to check deallocation.
final class WeakBox: @unchecked Sendable {
    // Only read for nil-ness after the screen has ended; never dereferenced across threads.
    private weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
    var isNil: Bool { object == nil }
}
