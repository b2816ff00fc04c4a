public import Foundation
import Primitives
public import Reactive

/// A scheduler in virtual time for marble-style tests, shaped like RxTest's.
///
/// Nothing runs until `start()` or `advanceTo(_:)`; then scheduled actions run in order of
/// virtual time (ties in order of scheduling) on the calling thread. With
/// `simulateProcessingDelay`, work scheduled for now runs one tick later, as in RxTest.
///
/// ```swift
/// let scheduler = TestScheduler(initialClock: 0)
/// let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
/// let observer = scheduler.start { source.map { $0 * 10 } }
/// #expect(observer.events == [.next(210, 10), .next(220, 20), .completed(300)])
/// ```
public final class TestScheduler: SchedulerType, Sendable {
    /// Default virtual times of `start(_:)`, as in RxTest.
    public enum Defaults {
        /// When the sequence is created.
        public static let created: TestTime = 100
        /// When it is subscribed.
        public static let subscribed: TestTime = 200
        /// When the subscription is disposed.
        public static let disposed: TestTime = 1000
    }

    private final class Item {
        let time: TestTime
        let order: Int
        var action: (() -> Void)?

        init(time: TestTime, order: Int, action: @escaping () -> Void) {
            self.time = time
            self.order = order
            self.action = action
        }
    }

    private struct State {
        var clock: TestTime
        var queue: [Item] = []
        var order = 0
        var isRunning = false
    }

    private let state: Locked<State>
    private let resolution: Double
    private let simulateProcessingDelay: Bool

    /// Creates a scheduler whose clock starts at `initialClock`; one tick is `resolution` seconds.
    public init(initialClock: TestTime, resolution: Double = 1.0, simulateProcessingDelay: Bool = true) {
        state = Locked(State(clock: initialClock))
        self.resolution = resolution
        self.simulateProcessingDelay = simulateProcessingDelay
    }

    /// The current virtual time.
    public var clock: TestTime {
        state.withLock { $0.clock }
    }

    /// The current virtual time as a date.
    public var now: RxTime {
        Date(timeIntervalSince1970: Double(clock) * resolution)
    }

    /// Runs `action` at the current virtual time (one tick later with processing delay).
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> any Disposable)
        -> any Disposable
    {
        scheduleAbsolute(state, time: clock, action: action)
    }

    /// Runs `action` `dueTime` later in virtual time.
    public func scheduleRelative<StateType>(
        _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> any Disposable
    ) -> any Disposable {
        scheduleAbsolute(state, time: clock + ticks(dueTime), action: action)
    }

    /// Runs `action` at virtual `time`.
    public func scheduleAt(_ time: TestTime, action: @escaping () -> Void) {
        _ = scheduleAbsolute((), time: time) { _ in
            action()
            return Disposables.create()
        }
    }

    /// Runs every scheduled action, advancing the clock, until none is left.
    public func start() {
        run(until: nil)
    }

    /// Runs the actions scheduled up to `time` and sets the clock to `time`.
    public func advanceTo(_ time: TestTime) {
        run(until: time)
        state.withLock { $0.clock = max($0.clock, time) }
    }

    /// Stops `start()` after the running action.
    public func stop() {
        state.withLock { $0.isRunning = false }
    }

    /// Creates, subscribes and disposes the sequence `create` returns at the given virtual times,
    /// runs the scheduler, and returns the observer that recorded its events.
    public func start<Output: ObservableConvertibleType>(
        created: TestTime, subscribed: TestTime, disposed: TestTime, create: @escaping () -> Output
    ) -> TestableObserver<Output.Element> {
        var source: Observable<Output.Element>?
        var subscription: (any Disposable)?
        let observer = createObserver(Output.Element.self)
        scheduleAt(created) { source = create().asObservable() }
        scheduleAt(subscribed) { subscription = source?.subscribe(observer) }
        scheduleAt(disposed) {
            subscription?.dispose()
            source = nil
            subscription = nil
        }
        start()
        return observer
    }

    /// `start(created: 100, subscribed: 200, disposed: disposed, create:)`.
    public func start<Output: ObservableConvertibleType>(disposed: TestTime, create: @escaping () -> Output)
        -> TestableObserver<Output.Element>
    {
        start(created: Defaults.created, subscribed: Defaults.subscribed, disposed: disposed, create: create)
    }

    /// `start(created: 100, subscribed: 200, disposed: 1000, create:)`.
    public func start<Output: ObservableConvertibleType>(_ create: @escaping () -> Output)
        -> TestableObserver<Output.Element>
    {
        start(
            created: Defaults.created, subscribed: Defaults.subscribed, disposed: Defaults.disposed, create: create)
    }

    /// An observer that records events with the virtual time they arrive.
    public func createObserver<Element>(_ type: Element.Type) -> TestableObserver<Element> {
        TestableObserver(scheduler: self)
    }

    /// A hot sequence: sends `events` at their virtual times whether or not anyone listens.
    public func createHotObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        HotObservable(scheduler: self, events: events)
    }

    /// A cold sequence: sends `events` to each subscriber, their times relative to the subscription.
    public func createColdObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        ColdObservable(scheduler: self, events: events)
    }

    private func ticks(_ interval: RxTimeInterval) -> TestTime {
        if case .never = interval { return Int.max / 2 }
        return Int(interval.seconds / resolution + 0.5)
    }

    private func scheduleAbsolute<StateType>(
        _ value: StateType, time: TestTime, action: @escaping (StateType) -> any Disposable
    ) -> any Disposable {
        let cancel = SingleAssignmentDisposable()
        let item = state.withLock { state -> Item in
            let adjusted = time <= state.clock ? state.clock + (simulateProcessingDelay ? 1 : 0) : time
            let item = Item(time: adjusted, order: state.order) {
                guard !cancel.isDisposed else { return }
                cancel.setDisposable(action(value))
            }
            state.order += 1
            let index = state.queue.firstIndex { ($0.time, $0.order) > (item.time, item.order) } ?? state.queue.count
            state.queue.insert(item, at: index)
            return item
        }
        return Disposables.create(cancel, Disposables.create { [weak self] in self?.remove(item) })
    }

    private func remove(_ item: Item) {
        state.withLock { state in
            item.action = nil
            if let index = state.queue.firstIndex(where: { $0 === item }) { state.queue.remove(at: index) }
        }
    }

    private func run(until limit: TestTime?) {
        state.withLock { $0.isRunning = true }
        while let action = state.withLock({ state -> (() -> Void)? in
            guard state.isRunning, let first = state.queue.first else { return nil }
            if let limit, first.time > limit { return nil }
            state.queue.removeFirst()
            state.clock = max(state.clock, first.time)
            defer { first.action = nil }
            return first.action
        }) {
            action()
        }
        state.withLock { $0.isRunning = false }
    }
}
