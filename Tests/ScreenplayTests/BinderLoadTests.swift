import Reactive
import Screenplay
import Testing
import ViewKit

/// A controller with a view built in code and a log of what ran when its view loaded.
private final class LoggingViewController: ViewController {
    var log: [String] = []
    var onViewDidLoad: (() -> Void)?
    override func loadView() { setView(View()) }
    override func viewDidLoad() {
        log.append("viewDidLoad")
        onViewDidLoad?()
    }
}

/// A binder that logs its `bindLoaded` under `name`.
private final class LoggingBinder: ViewControllerBinder {
    unowned let viewController: LoggingViewController
    let name: String
    let then: (() -> Void)?
    init(viewController: LoggingViewController, name: String, then: (() -> Void)? = nil) {
        self.viewController = viewController
        self.name = name
        self.then = then
        bind()
    }
    func dispose() {}
    func bindLoaded() {
        viewController.log.append(name)
        then?()
    }
}

/// A binder's `bindLoaded` runs once after `viewDidLoad`, in order with `rx.viewDidLoad`'s subscribers, and nothing
/// of its binding is kept once it has run.
@Suite struct BinderLoadTests {
    private func observe(_ controller: LoggingViewController, as name: String) {
        controller.rx.viewDidLoad.subscribe(onNext: { [unowned controller] in controller.log.append(name) })
            .disposed(by: controller.bag)
    }

    @Test func bindersAndSubscribersRunOnceAfterViewDidLoadInTheOrderTheyRegistered() {
        let controller = LoggingViewController()
        controller.bag.insert(LoggingBinder(viewController: controller, name: "first binder"))
        observe(controller, as: "first subscriber")
        controller.bag.insert(LoggingBinder(viewController: controller, name: "second binder"))
        observe(controller, as: "second subscriber")
        controller.loadViewIfNeeded()
        controller.loadViewIfNeeded()
        #expect(
            controller.log == ["viewDidLoad", "first binder", "first subscriber", "second binder", "second subscriber"])
    }

    @Test func aBinderBeforeAnySubscriberRunsFirstAndKeepsNoSubscription() {
        let controller = LoggingViewController()
        controller.bag.insert(LoggingBinder(viewController: controller, name: "binder"))
        observe(controller, as: "subscriber")
        // The bag holds the binder and the subscriber's subscription: none for the binder's binding.
        #expect(controller.bag.contents.count == 2)
        controller.loadViewIfNeeded()
        #expect(controller.log == ["viewDidLoad", "binder", "subscriber"])
    }

    @Test func aBinderBoundAfterTheViewLoadedNeverRuns() {
        let controller = LoggingViewController()
        controller.loadViewIfNeeded()
        controller.bag.insert(LoggingBinder(viewController: controller, name: "late binder"))
        #expect(controller.log == ["viewDidLoad"])
    }

    @Test func aBinderBoundInViewDidLoadRunsOneBoundDuringTheEventDoesNot() {
        let controller = LoggingViewController()
        controller.onViewDidLoad = { [unowned controller] in
            controller.bag.insert(LoggingBinder(viewController: controller, name: "bound in viewDidLoad"))
        }
        controller.bag.insert(
            LoggingBinder(viewController: controller, name: "binder") { [unowned controller] in
                // Late, as a subject's subscriber made during its delivery.
                controller.bag.insert(LoggingBinder(viewController: controller, name: "bound by a binder"))
            })
        controller.loadViewIfNeeded()
        #expect(controller.log == ["viewDidLoad", "binder", "bound in viewDidLoad"])
    }

    /// `whenViewLoaded` runs in its turn among binders and subscribers, once, and keeps nothing in the bag.
    @Test func aLoadActionRunsOnceInOrderAndKeepsNothing() {
        let controller = LoggingViewController()
        controller.whenViewLoaded { [unowned controller] in controller.log.append("first action") }
        controller.bag.insert(LoggingBinder(viewController: controller, name: "binder"))
        controller.whenViewLoaded { [unowned controller] in controller.log.append("second action") }
        // The bag holds the binder alone: nothing for the actions.
        #expect(controller.bag.contents.count == 1)
        observe(controller, as: "subscriber")
        controller.whenViewLoaded { [unowned controller] in controller.log.append("action after the subscriber") }
        controller.loadViewIfNeeded()
        controller.loadViewIfNeeded()
        controller.whenViewLoaded { [unowned controller] in controller.log.append("late action") }
        #expect(
            controller.log == [
                "viewDidLoad", "first action", "binder", "second action", "subscriber", "action after the subscriber",
            ])
    }

    /// A load action holds what its closure captures until it has run, then lets it go.
    @Test func aLoadActionLetsGoOfWhatItCapturesOnceItHasRun() {
        final class Captured {}
        let controller = LoggingViewController()
        var captured: Captured? = Captured()
        weak let weakCaptured = captured
        controller.whenViewLoaded { [captured] in _ = captured }
        captured = nil
        #expect(weakCaptured != nil)
        controller.loadViewIfNeeded()
        #expect(weakCaptured == nil)
    }

    @Test func aLoadActionWhoseBagWasDisposedBeforeTheViewLoadedNeverRuns() {
        let controller = LoggingViewController()
        controller.whenViewLoaded { [unowned controller] in controller.log.append("action") }
        controller.disposeBag()
        controller.loadViewIfNeeded()
        #expect(controller.log == ["viewDidLoad"])
    }

    @Test func aBinderWhoseBagWasDisposedBeforeTheViewLoadedNeverRuns() {
        let controller = LoggingViewController()
        controller.bag.insert(LoggingBinder(viewController: controller, name: "binder"))
        let binderKeptElsewhere = LoggingBinder(viewController: controller, name: "binder kept elsewhere")
        controller.disposeBag()
        controller.loadViewIfNeeded()
        #expect(controller.log == ["viewDidLoad"])
        _ = binderKeptElsewhere
    }
}
