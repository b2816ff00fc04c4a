#if REACTIVE_NSLOCK
    import Foundation
#else
    import Synchronization
#endif

/// A value guarded by a lock: the one place shared mutable state lives in this module, and the lock every other
/// module of the package uses instead of `Mutex`, so one flag swaps them all for ThreadSanitizer runs.
///
/// `@unchecked Sendable` because the lock serialises every access to `state`; the state may hold
/// non-`Sendable` observers, which the Rx contract lets any emitting thread call (after unlocking).
/// Builds with `-D REACTIVE_NSLOCK` use `NSLock`, because ThreadSanitizer on Linux reports false
/// races inside `Mutex.withLock`.
package final class Locked<State: ~Copyable>: @unchecked Sendable {
    #if REACTIVE_NSLOCK
        private let lock = NSLock()
    #else
        private let mutex = Mutex(())
    #endif
    // Behind a pointer rather than a stored `var`, so that taking it `inout` under the lock does
    // not also pay for dynamic exclusivity checking on every event.
    private let state: UnsafeMutablePointer<State>

    package init(_ state: consuming State) {
        self.state = UnsafeMutablePointer.allocate(capacity: 1)
        self.state.initialize(to: state)
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Runs `body` with exclusive access to the state. Never call out to user code from `body`.
    @inline(__always)
    package func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        #if REACTIVE_NSLOCK
            lock.lock()
            defer { lock.unlock() }
            return try body(&state.pointee)
        #else
            return try mutex.withLock { _ throws(Failure) in try body(&state.pointee) }
        #endif
    }
}

/// Carries a value to exactly one other thread (a scheduler hop).
///
/// `@unchecked Sendable` because the Rx scheduler contract hands an action, with the observer and
/// element it closes over, to the scheduler's thread and the sender never touches it again; the
/// grammar serialises deliveries, so the value is used by one thread at a time.
struct Transfer<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
