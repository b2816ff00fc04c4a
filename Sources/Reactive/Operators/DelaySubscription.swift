extension ObservableType {
    /// Subscribes to this sequence `dueTime` after the subscription, timed on `scheduler`; disposing before then
    /// subscribes nothing.
    ///
    /// ```swift
    /// api.refresh().delaySubscription(.seconds(1), scheduler: scheduler)
    /// ```
    public func delaySubscription(_ dueTime: RxTimeInterval, scheduler: any SchedulerType) -> Observable<Element> {
        let source = asObservable()
        return Observable.create { observer in
            scheduler.scheduleRelative((), dueTime: dueTime) { _ in source.subscribe(observer) }
        }
    }
}

extension PrimitiveSequence {
    /// Subscribes `dueTime` after the subscription, timed on `scheduler`.
    public func delaySubscription(_ dueTime: RxTimeInterval, scheduler: any SchedulerType)
        -> PrimitiveSequence<Trait, Element>
    {
        PrimitiveSequence(raw: source.delaySubscription(dueTime, scheduler: scheduler))
    }
}

extension PrimitiveSequence where Element: FixedWidthInteger {
    /// A trait that sends `0` after `dueTime` on `scheduler`, then completes.
    ///
    /// ```swift
    /// Single<Int>.timer(.seconds(2), scheduler: scheduler)
    /// ```
    public static func timer(_ dueTime: RxTimeInterval, scheduler: any SchedulerType)
        -> PrimitiveSequence<Trait, Element>
    {
        PrimitiveSequence(raw: Observable<Element>.timer(dueTime, scheduler: scheduler))
    }
}
