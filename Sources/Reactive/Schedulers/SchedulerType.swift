public import Dispatch
public import FoundationEssentials
import Primitives

/// A duration for schedulers, as in RxSwift 6.
public typealias RxTimeInterval = DispatchTimeInterval

/// A point in time for schedulers.
public typealias RxTime = Date

/// Runs actions now or soon, in order of scheduling for serial schedulers.
///
/// Contract: an action runs at most once; disposing the returned disposable before it runs
/// cancels it, and disposing it after disposes what the action returned.
public protocol ImmediateSchedulerType: Sendable {
    /// Schedules `action` to run with `state`.
    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> any Disposable) -> any Disposable
}

/// A scheduler that can also run actions later.
public protocol SchedulerType: ImmediateSchedulerType {
    /// The scheduler's clock.
    var now: RxTime { get }

    /// Schedules `action` to run with `state` after `dueTime`.
    func scheduleRelative<StateType>(
        _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> any Disposable
    ) -> any Disposable
}

extension DispatchTimeInterval {
    /// The interval in seconds (`never` is infinite).
    package var seconds: Double {
        switch self {
        case .seconds(let value): return Double(value)
        case .milliseconds(let value): return Double(value) / 1_000
        case .microseconds(let value): return Double(value) / 1_000_000
        case .nanoseconds(let value): return Double(value) / 1_000_000_000
        case .never: return .infinity
        @unknown default: return .infinity
        }
    }
}

/// Schedules onto a dispatch queue: the shared implementation of the queue-backed schedulers.
struct DispatchQueueScheduling: Sendable {
    let queue: DispatchQueue

    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> any Disposable) -> any Disposable {
        let cancel = SingleAssignmentDisposable()
        let work = Transfer((state, action))
        queue.async {
            guard !cancel.isDisposed else { return }
            cancel.setDisposable(work.value.1(work.value.0))
        }
        return cancel
    }

    func scheduleRelative<StateType>(
        _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> any Disposable
    ) -> any Disposable {
        if case .never = dueTime { return Disposables.create() }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let cancel = SingleAssignmentDisposable()
        let work = Transfer((state, action, timer))
        // The handler holds the timer so that it fires even if the caller drops the returned
        // disposable; cancelling (after firing, or on disposal) releases the handler.
        timer.setEventHandler {
            let (state, action, timer) = work.value
            timer.cancel()
            guard !cancel.isDisposed else { return }
            cancel.setDisposable(action(state))
        }
        timer.schedule(deadline: .now() + dueTime, leeway: .nanoseconds(0))
        timer.resume()
        let cancelTimer = Transfer(timer)
        return Disposables.create(cancel, Disposables.create { cancelTimer.value.cancel() })
    }
}
