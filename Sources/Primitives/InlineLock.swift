#if SCREENPLAY_TSAN_LOCKS
    public import Foundation
#else
    public import Synchronization
#endif

/// A lock stored inside the object whose stored properties it guards.
///
/// `Locked` is a box of its own, an allocation besides its owner. The subjects, disposables and sinks every
/// subscription makes hold a lock each, so they keep their few fields in themselves and guard them with this
/// instead: no allocation at all in release builds (a `Mutex` is a word inside the owner). Builds with `-D SCREENPLAY_TSAN_LOCKS` use `NSLock`, as `Locked` does, for ThreadSanitizer.
///
/// An owner that uses it reads and writes the guarded properties only inside `withLock`, and says so where it
/// declares itself `@unchecked Sendable`.
public struct InlineLock: ~Copyable {
    #if SCREENPLAY_TSAN_LOCKS
        @usableFromInline let lock = NSLock()
    #else
        @usableFromInline let mutex = Mutex(())
    #endif

    @inlinable
    public init() {}

    /// Runs `body` holding the lock. Never call out to user code from `body`.
    @inlinable @inline(__always)
    public func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        #if SCREENPLAY_TSAN_LOCKS
            lock.lock()
            defer { lock.unlock() }
            return try body()
        #else
            return try mutex.withLock { _ throws(Failure) in try body() }
        #endif
    }
}
