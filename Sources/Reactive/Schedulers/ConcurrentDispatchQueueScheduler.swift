public import Dispatch
public import FoundationEssentials

/// A background scheduler on a concurrent dispatch queue, for work that must leave the screen's
/// scheduler (image decoding, store queries).
///
/// Contract: actions may run in parallel with each other; `observe(on:)` still delivers one event
/// at a time, in order.
///
/// ```swift
/// store.search(query).subscribe(on: ConcurrentDispatchQueueScheduler(qos: .userInitiated))
/// ```
public final class ConcurrentDispatchQueueScheduler: SchedulerType, Sendable {
    private let scheduling: DispatchQueueScheduling

    /// A scheduler on the global queue of `qos`.
    public init(qos: DispatchQoS) {
        scheduling = DispatchQueueScheduling(queue: DispatchQueue.global(qos: qos.qosClass))
    }

    /// A scheduler on `queue`.
    public init(queue: DispatchQueue) {
        scheduling = DispatchQueueScheduling(queue: queue)
    }

    /// The wall clock.
    public var now: RxTime {
        Date()
    }

    /// Runs `action` soon on the queue.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> any Disposable)
        -> any Disposable
    {
        scheduling.schedule(state, action: action)
    }

    /// Runs `action` on the queue after `dueTime`.
    public func scheduleRelative<StateType>(
        _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> any Disposable
    ) -> any Disposable {
        scheduling.scheduleRelative(state, dueTime: dueTime, action: action)
    }
}
