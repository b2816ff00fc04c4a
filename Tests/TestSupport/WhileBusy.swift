import Foundation

/// Runs `body` while a serial queue is kept busy by a task that `schedule` puts on it, then lets the task end, and
/// returns what `body` returns: for work that piles up behind a screen that is slower than its producers, or a request
/// that must not wait for a busy screen.
///
/// ```swift
/// try whileBusy({ screen.schedule($0) }) {
///     for value in 1...100 { subject.onNext(value) }
/// }
/// screen.sync {}
/// ```
public func whileBusy<Result>(
    _ schedule: (@escaping @Sendable () -> Void) -> Void, _ body: () throws -> Result
) rethrows -> Result {
    let busy = DispatchSemaphore(value: 0)
    let started = DispatchSemaphore(value: 0)
    schedule {
        started.signal()
        busy.wait()
    }
    started.wait()
    defer { busy.signal() }
    return try body()
}
