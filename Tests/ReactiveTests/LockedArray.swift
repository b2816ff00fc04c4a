import Foundation

/// A thread-safe array for tests that collect from several threads.
final class LockedArray<Value: Sendable>: @unchecked Sendable {
    // `@unchecked` because `lock` guards `storage`; tests cannot use the module's internal box.
    private let lock = NSLock()
    private var storage: [Value] = []

    func append(_ value: Value) {
        lock.lock()
        storage.append(value)
        lock.unlock()
    }

    var values: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
