#if SCREENPLAY_TSAN_LOCKS
    import Foundation

    /// `Mutex` with an `NSLock` inside, for ThreadSanitizer runs only (`-Xswiftc -DSCREENPLAY_TSAN_LOCKS`):
    /// on Linux, TSan does not see `Mutex`'s futex as synchronization and reports races inside
    /// `withLock` that cannot happen. Same API as `Mutex`; `@unchecked Sendable` because the lock
    /// guards every access to the value.
    final class Locked<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Value

        init(_ value: sending Value) {
            self.value = value
        }

        func withLock<Result, Failure: Error>(
            _ body: (inout sending Value) throws(Failure) -> sending Result
        ) throws(Failure) -> sending Result {
            lock.lock()
            defer { lock.unlock() }
            return try body(&value)
        }
    }
#else
    import Synchronization

    /// The lock around shared mutable state: `Mutex`, or an `NSLock`-based twin in ThreadSanitizer runs.
    typealias Locked<Value> = Mutex<Value>
#endif
