public import Reactive

extension SharingScheduler {
    /// Runs `action` with `scheduler` as the scheduler `Driver` and `Signal` deliver on off every screen, as
    /// RxCocoa's: inside it, `drive` and `emit` called off a screen subscribe and deliver on `scheduler` (instead of
    /// reporting a programmer error), and so does a driver's `asObservable()`. What was installed before is restored
    /// after.
    ///
    /// ```swift
    /// let scheduler = TestScheduler(initialClock: 0)
    /// SharingScheduler.mock(scheduler: scheduler) {
    ///     let observer = scheduler.start { viewModel.title.asObservable() }
    ///     #expect(observer.events == [.next(201, "Loading…")])
    /// }
    /// ```
    public static func mock<Result>(scheduler: any SchedulerType, action: () throws -> Result) rethrows -> Result {
        try withMock(scheduler, action)
    }

    /// `mock(scheduler:action:)` with the scheduler `makeScheduler` returns.
    public static func mock<Result>(makeScheduler: () -> any SchedulerType, action: () throws -> Result) rethrows
        -> Result
    {
        try withMock(makeScheduler(), action)
    }
}
