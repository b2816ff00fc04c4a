#if SCREENPLAY_TSAN_LOCKS
    import Foundation

    /// `Mutex`'s twin with an `NSLock` inside, for ThreadSanitizer runs only (`-Xswiftc -DSCREENPLAY_TSAN_LOCKS`): on
    /// Linux, TSan does not see `Mutex`'s futex as synchronisation and reports races inside `withLock` that cannot
    /// happen. The same API as `Mutex`; `@unchecked Sendable` because the lock guards every access to the value.
    public final class LockedValue<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Value

        public init(_ value: sending Value) {
            self.value = value
        }

        public func withLock<Result, Failure: Error>(
            _ body: (inout sending Value) throws(Failure) -> sending Result
        ) throws(Failure) -> sending Result {
            lock.lock()
            defer { lock.unlock() }
            return try body(&value)
        }
    }
#else
    public import Synchronization

    /// A value and its lock, stored in its owner: `Mutex`, or an `NSLock`-based twin in ThreadSanitizer runs. For
    /// `Sendable` state owned by one object; ``Locked`` is the box to share, and ``InlineLock`` guards an object's own
    /// stored properties.
    public typealias LockedValue<Value> = Mutex<Value>
#endif
