public import Foundation
import Primitives
public import Reactive

/// How one virtual time compares with another.
public enum VirtualTimeComparison: Sendable {
    /// The first is earlier.
    case lessThan
    /// They are equal.
    case equal
    /// The first is later.
    case greaterThan
}

/// Converts a virtual time scheduler's units to dates and intervals, as RxSwift's `VirtualTimeConverterType`.
public protocol VirtualTimeConverterType: Sendable {
    /// A point in virtual time.
    associatedtype VirtualTimeUnit: Sendable
    /// A duration in virtual time.
    associatedtype VirtualTimeIntervalUnit: Sendable

    /// The date of `virtualTime`.
    func convertFromVirtualTime(_ virtualTime: VirtualTimeUnit) -> RxTime
    /// The virtual time of `time`.
    func convertToVirtualTime(_ time: RxTime) -> VirtualTimeUnit
    /// The seconds of `virtualTimeInterval`.
    func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit) -> TimeInterval
    /// The virtual duration of `timeInterval` seconds.
    func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> VirtualTimeIntervalUnit
    /// `time` moved by `offset`.
    func offsetVirtualTime(_ time: VirtualTimeUnit, offset: VirtualTimeIntervalUnit) -> VirtualTimeUnit
    /// How `lhs` compares with `rhs`.
    func compareVirtualTime(_ lhs: VirtualTimeUnit, _ rhs: VirtualTimeUnit) -> VirtualTimeComparison
}

/// A scheduler in virtual time, as RxSwift's `VirtualTimeScheduler`: nothing runs until `start()` or `advanceTo(_:)`;
/// then scheduled actions run on the calling thread in order of virtual time (ties in order of scheduling), the clock
/// jumping to each.
///
/// ```swift
/// let scheduler = HistoricalScheduler()
/// _ = scheduler.scheduleRelative((), dueTime: .seconds(5)) { _ in print(scheduler.now); return Disposables.create() }
/// scheduler.start()  // prints 1970-01-01 00:00:05 +0000
/// ```
public final class VirtualTimeScheduler<Converter: VirtualTimeConverterType>: SchedulerType, Sendable {
    private final class Item {
        let time: Converter.VirtualTimeUnit
        let order: Int
        var action: (() -> Void)?

        init(time: Converter.VirtualTimeUnit, order: Int, action: @escaping () -> Void) {
            self.time = time
            self.order = order
            self.action = action
        }
    }

    private struct State {
        var clock: Converter.VirtualTimeUnit
        var queue: [Item] = []
        var order = 0
        var isRunning = false
    }

    private let state: Locked<State>
    /// The converter between virtual and real time.
    public let converter: Converter

    /// Creates a scheduler whose clock starts at `initialClock`.
    public init(initialClock: Converter.VirtualTimeUnit, converter: Converter) {
        state = Locked(State(clock: initialClock))
        self.converter = converter
    }

    /// The current virtual time.
    public var clock: Converter.VirtualTimeUnit {
        state.withLock { $0.clock }
    }

    /// The current virtual time as a date.
    public var now: RxTime {
        converter.convertFromVirtualTime(clock)
    }

    /// Whether `start()` or `advanceTo(_:)` is running actions.
    public var isEnabled: Bool {
        state.withLock { $0.isRunning }
    }

    /// Runs `action` at the current virtual time.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> any Disposable)
        -> any Disposable
    {
        scheduleAbsoluteVirtual(state, time: clock, action: action)
    }

    /// Runs `action` `dueTime` later in virtual time.
    public func scheduleRelative<StateType>(
        _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> any Disposable
    ) -> any Disposable {
        let offset = converter.convertToVirtualTimeInterval(dueTime.seconds)
        return scheduleAbsoluteVirtual(state, time: converter.offsetVirtualTime(clock, offset: offset), action: action)
    }

    /// Runs `action` at virtual `time` (at once, in turn, if that has passed).
    public func scheduleAbsoluteVirtual<StateType>(
        _ value: StateType, time: Converter.VirtualTimeUnit, action: @escaping (StateType) -> any Disposable
    ) -> any Disposable {
        let cancel = SingleAssignmentDisposable()
        let converter = self.converter
        let item = state.withLock { state -> Item in
            let due = converter.compareVirtualTime(time, state.clock) == .lessThan ? state.clock : time
            let item = Item(time: due, order: state.order) {
                guard !cancel.isDisposed else { return }
                cancel.setDisposable(action(value))
            }
            state.order += 1
            let index =
                state.queue.firstIndex { queued in
                    switch converter.compareVirtualTime(queued.time, item.time) {
                    case .greaterThan: return true
                    case .equal: return queued.order > item.order
                    case .lessThan: return false
                    }
                } ?? state.queue.count
            state.queue.insert(item, at: index)
            return item
        }
        return Disposables.create(cancel, Disposables.create { [weak self] in self?.remove(item) })
    }

    /// Runs every scheduled action, advancing the clock, until none is left or `stop()` is called.
    public func start() {
        run(until: nil)
    }

    /// Runs the actions scheduled up to `virtualTime` and sets the clock to it.
    public func advanceTo(_ virtualTime: Converter.VirtualTimeUnit) {
        run(until: virtualTime)
        let converter = self.converter
        state.withLock { state in
            if converter.compareVirtualTime(state.clock, virtualTime) == .lessThan { state.clock = virtualTime }
        }
    }

    /// Moves the clock forward by `virtualInterval` without running anything.
    public func sleep(_ virtualInterval: Converter.VirtualTimeIntervalUnit) {
        let converter = self.converter
        state.withLock { $0.clock = converter.offsetVirtualTime($0.clock, offset: virtualInterval) }
    }

    /// Stops `start()` after the running action.
    public func stop() {
        state.withLock { $0.isRunning = false }
    }

    private func remove(_ item: Item) {
        state.withLock { state in
            item.action = nil
            if let index = state.queue.firstIndex(where: { $0 === item }) { state.queue.remove(at: index) }
        }
    }

    private func run(until limit: Converter.VirtualTimeUnit?) {
        let converter = self.converter
        state.withLock { $0.isRunning = true }
        while let action = state.withLock({ state -> (() -> Void)? in
            guard state.isRunning, let first = state.queue.first else { return nil }
            if let limit, converter.compareVirtualTime(first.time, limit) == .greaterThan { return nil }
            state.queue.removeFirst()
            if converter.compareVirtualTime(state.clock, first.time) == .lessThan { state.clock = first.time }
            defer { first.action = nil }
            return first.action
        }) {
            action()
        }
        state.withLock { $0.isRunning = false }
    }
}

/// Virtual time as dates: the converter of `HistoricalScheduler`.
public struct HistoricalSchedulerTimeConverter: VirtualTimeConverterType {
    /// Creates the converter.
    public init() {}

    /// The date itself.
    public func convertFromVirtualTime(_ virtualTime: RxTime) -> RxTime { virtualTime }
    /// The date itself.
    public func convertToVirtualTime(_ time: RxTime) -> RxTime { time }
    /// The seconds themselves.
    public func convertFromVirtualTimeInterval(_ virtualTimeInterval: TimeInterval) -> TimeInterval {
        virtualTimeInterval
    }
    /// The seconds themselves.
    public func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> TimeInterval { timeInterval }
    /// `time` plus `offset` seconds.
    public func offsetVirtualTime(_ time: RxTime, offset: TimeInterval) -> RxTime {
        time.addingTimeInterval(offset)
    }
    /// The dates' order.
    public func compareVirtualTime(_ lhs: RxTime, _ rhs: RxTime) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : lhs == rhs ? .equal : .greaterThan
    }
}

/// A virtual time scheduler whose clock is a date, as RxSwift's `HistoricalScheduler`: for replaying events that
/// carry timestamps.
///
/// ```swift
/// let scheduler = HistoricalScheduler(initialClock: Date(timeIntervalSince1970: 0))
/// ```
public typealias HistoricalScheduler = VirtualTimeScheduler<HistoricalSchedulerTimeConverter>

extension VirtualTimeScheduler where Converter == HistoricalSchedulerTimeConverter {
    /// A scheduler whose clock starts at `initialClock` (the start of 1970 by default).
    public convenience init(initialClock: RxTime = Date(timeIntervalSince1970: 0)) {
        self.init(initialClock: initialClock, converter: HistoricalSchedulerTimeConverter())
    }
}
