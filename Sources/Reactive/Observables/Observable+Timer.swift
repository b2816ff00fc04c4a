extension ObservableType where Element: FixedWidthInteger {
    /// Sends `0` after `dueTime` on `scheduler`, as RxSwift's `Observable.timer`: without a
    /// `period` it then completes; with one it goes on sending `1`, `2`, … every `period` (wrapping
    /// on overflow) and never completes. Disposing cancels the pending tick.
    ///
    /// ```swift
    /// Observable<Int>.timer(.seconds(2), period: .seconds(1), scheduler: scheduler)
    ///     .subscribe(onNext: { print($0) })  // 0 at 2 s, 1 at 3 s, 2 at 4 s, …
    /// ```
    public static func timer(
        _ dueTime: RxTimeInterval, period: RxTimeInterval? = nil, scheduler: any SchedulerType
    ) -> Observable<Element> {
        Observable.create { observer in
            guard let period else {
                return scheduler.scheduleRelative((), dueTime: dueTime) { _ in
                    observer.onNext(0)
                    observer.onCompleted()
                    return Disposables.create()
                }
            }
            // Each tick schedules the next one relative to itself; the serial disposable holds only the pending one.
            let pending = SerialDisposable()
            func tick(_ value: Element, after delay: RxTimeInterval) {
                pending.disposable = scheduler.scheduleRelative(value, dueTime: delay) { value in
                    observer.onNext(value)
                    tick(value &+ 1, after: period)
                    return Disposables.create()
                }
            }
            tick(0, after: dueTime)
            return pending
        }
    }

    /// Sends `0`, `1`, `2`, … every `period` on `scheduler`, the first one `period` after
    /// subscription, as RxSwift's `Observable.interval`; it never completes.
    ///
    /// ```swift
    /// Observable<Int>.interval(.seconds(30), scheduler: scheduler)
    ///     .flatMapLatest { _ in api.refresh() }
    /// ```
    public static func interval(_ period: RxTimeInterval, scheduler: any SchedulerType) -> Observable<Element> {
        timer(period, period: period, scheduler: scheduler)
    }
}
