import Primitives

/// The scheduler `Driver` and `Signal` deliver on off any screen, as RxCocoa's `SharingScheduler`: none (a
/// ``ProgrammerError`` for `drive` and `emit` called there) unless a test installs one with
/// `SharingScheduler.mock(scheduler:action:)` from `ReactiveTesting`.
///
/// On a screen, a `Driver` always delivers on that screen's scheduler; the mock changes only what happens off every
/// screen, which is where unit tests of view models run.
///
/// ```swift
/// SharingScheduler.mock(scheduler: testScheduler) {
///     viewModel.title.drive(onNext: { titles.append($0) }).disposed(by: bag)
///     testScheduler.start()
/// }
/// ```
public enum SharingScheduler {
    private static let installed = Locked<(any ImmediateSchedulerType)?>(nil)

    /// The installed scheduler, if any.
    package static var mock: (any ImmediateSchedulerType)? {
        installed.withLock { $0 }
    }

    /// Runs `action` with `scheduler` installed, then restores what was installed before.
    package static func withMock<Result>(_ scheduler: any ImmediateSchedulerType, _ action: () throws -> Result)
        rethrows -> Result
    {
        let previous = installed.withLock { installed in
            defer { installed = scheduler }
            return installed
        }
        defer { installed.withLock { $0 = previous } }
        return try action()
    }
}

/// Whether `drive` or `emit` may subscribe here: on a screen, or off every screen with a mock sharing scheduler
/// installed. Otherwise reports a ``ProgrammerError`` naming `operation` (the caller then subscribes nothing).
func mayDeliverHere(_ operation: String, file: StaticString, line: UInt) -> Bool {
    if ScreenScheduler.current != nil || SharingScheduler.mock != nil { return true }
    _ = requireScreenScheduler(operation, file: file, line: line)
    return false
}

/// Off every screen: `subscribe` of `source` delivered on the mock sharing scheduler, or, without one, nothing and
/// a reported ``ProgrammerError`` naming `operation`.
@usableFromInline
func subscribeOffScreen<Element>(
    _ operation: String, file: StaticString, line: UInt, source: Observable<Element>,
    _ subscribe: (Observable<Element>) -> any Disposable
) -> any Disposable {
    guard let mock = SharingScheduler.mock else {
        _ = requireScreenScheduler(operation, file: file, line: line)
        return Disposables.create()
    }
    return subscribe(source.observe(on: mock))
}
