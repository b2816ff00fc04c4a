import Foundation

/// A value behind a lock, for state a test shares with the threads it starts: `Mutex`'s interface on `NSLock`.
///
/// Not `Synchronization.Mutex`: ThreadSanitizer on Linux reports races inside `Mutex.withLock` that are not there
/// (the reason the package swaps its own locks for `NSLock` in the TSan build), and with `halt_on_error` one such
/// report ends the whole run.
public final class TestMutex<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Guards `value`.
    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
