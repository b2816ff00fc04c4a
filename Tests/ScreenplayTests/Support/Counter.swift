import Reactive
import Screenplay
import Synchronization
import TestSupport
import ViewKit

/// A small screen for the runtime's tests: a count, buttons that change it, and one that leaves.
final class CounterViewController: ViewController {
    @Outlet("countLabel") var countLabel: Label
    @Outlet("incrementButton") var incrementButton: Button
    @Outlet("burstButton") var burstButton: Button
    @Outlet("leaveButton") var leaveButton: Button

    var lifecycleLog: [String] = []
    let onDeinit: (@Sendable () -> Void)?

    init(onDeinit: (@Sendable () -> Void)? = nil) {
        self.onDeinit = onDeinit
        super.init()
    }

    required init() {
        onDeinit = nil
        super.init()
    }

    deinit { onDeinit?() }

    override func viewDidLoad() { lifecycleLog.append("viewDidLoad") }
    override func viewWillAppear(_ animated: Bool) { lifecycleLog.append("viewWillAppear(\(animated))") }
    override func viewDidAppear(_ animated: Bool) { lifecycleLog.append("viewDidAppear(\(animated))") }
    override func viewWillDisappear(_ animated: Bool) { lifecycleLog.append("viewWillDisappear(\(animated))") }
    override func viewDidDisappear(_ animated: Bool) { lifecycleLog.append("viewDidDisappear(\(animated))") }
}

protocol CounterDriving {
    var count: Driver<Int> { get }
    func increment()
    func burst()
    func leave()
}

/// The counter's state, in a relay any thread may write to (as a store's change feed would).
final class CounterDriver: CounterDriving {
    let relay: BehaviorRelay<Int>
    let count: Driver<Int>
    private let onLeave: () -> Void
    private let bag = DisposeBag()

    /// With `conflated`, the relay's changes reach the screen as a store's change feed's do: conflated onto the
    /// screen's scheduler, held while no page watches it.
    init(relay: BehaviorRelay<Int> = BehaviorRelay(value: 0), conflated: Bool = false, onLeave: @escaping () -> Void) {
        self.relay = relay
        self.onLeave = onLeave
        if conflated, let screen = ScreenScheduler.current {
            // MovieDetailDriver's shape: the state read now, the later changes conflated onto the screen.
            let state = BehaviorRelay(value: relay.value)
            relay.skip(1).conflated(on: screen).bind(to: state).disposed(by: bag)
            count = state.asDriver()
        } else {
            count = relay.asDriver()
        }
    }

    func increment() { relay.accept(relay.value + 1) }

    /// Ten changes in one turn: the page must receive one patch.
    func burst() {
        for _ in 0..<10 { relay.accept(relay.value + 1) }
    }

    func leave() { onLeave() }
}

/// The seed's binder shape, for the counter.
final class CounterBinder: ViewControllerBinder {
    unowned let viewController: CounterViewController
    private let driver: CounterDriving
    private let onConfigure: (() -> Void)?

    init(viewController: CounterViewController, driver: CounterDriving, onConfigure: (() -> Void)? = nil) {
        self.viewController = viewController
        self.driver = driver
        self.onConfigure = onConfigure
        bind()
    }

    func dispose() {}

    func bindLoaded() {
        viewController.title = "Counter"
        viewController.bag.insert(
            viewController.rx.viewWillAppear
                .bind(onNext: unowned(self, in: CounterBinder.viewWillAppear)),
            driver.count
                .drive(onNext: unowned(self, in: CounterBinder.configure))
        )
        viewController.bag.insert(
            viewController.incrementButton.rx.tap.bind(onNext: driver.increment),
            viewController.burstButton.rx.tap.bind(onNext: driver.burst),
            viewController.leaveButton.rx.tap.bind(onNext: driver.leave)
        )
    }

    private func viewWillAppear(_ animated: Bool) {
        viewController.navigationController?.setNavigationBarHidden(true, animated: animated)
    }

    private func configure(_ count: Int) {
        onConfigure?()
        viewController.countLabel.text = String(count)
        viewController.title = "Counter \(count)"
    }
}

/// Builds counter screens; every driver's relay is kept so tests can change state from outside.
final class CounterFactory: Sendable {
    /// The relays of the screens made to live, and of those made to render a page GET.
    private let relays = TestMutex<(live: [BehaviorRelay<Int>], rendered: [BehaviorRelay<Int>])>(([], []))
    /// How many of this factory's screens have appeared (their event stream connected).
    let appearances = Atomic<Int>(0)
    /// How many of this factory's live screens have disappeared (their page went away or their session ended).
    let disappearances = Atomic<Int>(0)
    /// How many of the screens made to render a page GET have disappeared (each does, at once).
    let renderDisappearances = Atomic<Int>(0)
    let shared: BehaviorRelay<Int>?
    /// Whether the screens' counts come conflated onto them, as a store's change feed does.
    let conflated: Bool
    /// How many times the binders configured their views with a count.
    let configurations = Atomic<Int>(0)

    init(shared: BehaviorRelay<Int>? = nil, conflated: Bool = false) {
        self.shared = shared
        self.conflated = conflated
    }

    /// The relays of the live screens, in the order they were made (a page GET's render keeps no screen; its page's
    /// stream or post builds the live one).
    var createdRelays: [BehaviorRelay<Int>] { relays.withLock { $0.live } }

    /// The relays of the screens made to render page GETs.
    var renderedRelays: [BehaviorRelay<Int>] { relays.withLock { $0.rendered } }

    func make(_ request: ScreenRequest, onDeinit: (@Sendable () -> Void)? = nil) -> CounterViewController {
        let viewController = CounterViewController(onDeinit: onDeinit)
        let relay = shared ?? BehaviorRelay(value: Int(request.query["start"] ?? "") ?? 0)
        relays.withLock {
            if request.isLive { $0.live.append(relay) } else { $0.rendered.append(relay) }
        }
        let driver = CounterDriver(relay: relay, conflated: conflated) { [unowned viewController] in
            viewController.navigationController?.popViewController(animated: true)
        }
        viewController.bag.insert(
            CounterBinder(viewController: viewController, driver: driver) { [self] in
                configurations.add(1, ordering: .relaxed)
            })
        viewController.rx.viewDidAppear
            .subscribe(onNext: { [self] _ in appearances.add(1, ordering: .relaxed) })
            .disposed(by: viewController.bag)
        let isLive = request.isLive
        viewController.rx.viewDidDisappear
            .subscribe(onNext: { [self] _ in
                if isLive {
                    disappearances.add(1, ordering: .relaxed)
                } else {
                    renderDisappearances.add(1, ordering: .relaxed)
                }
            })
            .disposed(by: viewController.bag)
        return viewController
    }
}

/// The fixtures folder.
let fixtureRoot: String = {
    let tests = #filePath.split(separator: "/").dropLast(2).joined(separator: "/")
    return "/" + tests + "/Fixtures"
}()

/// The fixtures' templates folder.
let fixtureTemplates = fixtureRoot + "/Templates"
