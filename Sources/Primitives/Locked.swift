#if SCREENPLAY_TSAN_LOCKS
    public import Foundation
#else
    public import Synchronization
#endif

/// A value guarded by a lock, in a box of its own that closures and objects can share by reference.
///
/// `@unchecked Sendable` because the lock serialises every access to `state`; the state may hold
/// non-`Sendable` observers, which the Rx contract lets any emitting thread call (after unlocking).
/// Builds with `-D SCREENPLAY_TSAN_LOCKS` use `NSLock` (see ``LockedValue``).
public final class Locked<State: ~Copyable>: @unchecked Sendable {
    #if SCREENPLAY_TSAN_LOCKS
        @usableFromInline let lock = NSLock()
    #else
        @usableFromInline let mutex = Mutex(())
    #endif
    @usableFromInline var state: State

    public init(_ state: consuming State) {
        self.state = state
    }

    /// Runs `body` with exclusive access to the state. Never call out to user code from `body`.
    @inlinable @inline(__always)
    public func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        #if SCREENPLAY_TSAN_LOCKS
            lock.lock()
            defer { lock.unlock() }
            return try body(&state)
        #else
            return try mutex.withLock { _ throws(Failure) in try body(&state) }
        #endif
    }
}
