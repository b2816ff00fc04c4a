import Primitives

extension ObservableType {
    /// Fails with `RxError.timeout` when no event arrives within `dueTime` of subscription or of the previous
    /// element, timed on `scheduler`.
    ///
    /// ```swift
    /// api.movies().timeout(.seconds(5), scheduler: scheduler)
    /// ```
    public func timeout(_ dueTime: RxTimeInterval, scheduler: any SchedulerType) -> Observable<Element> {
        timeout(dueTime, other: Observable.error(RxError.timeout), scheduler: scheduler)
    }

    /// Switches to `other` when no event arrives within `dueTime` of subscription or of the previous element, timed
    /// on `scheduler`.
    ///
    /// ```swift
    /// api.movies().timeout(.seconds(5), other: cache.movies(), scheduler: scheduler)
    /// ```
    public func timeout<Other: ObservableConvertibleType>(
        _ dueTime: RxTimeInterval, other: Other, scheduler: any SchedulerType
    ) -> Observable<Element> where Other.Element == Element {
        let source = asObservable()
        let other = other.asObservable()
        return Observable.create { observer in
            // The generation of the pending timer; a timer of an older one, or after a switch or a stop, does nothing.
            let state = Locked(TimeoutState())
            let timer = SerialDisposable()
            let subscription = SerialDisposable()
            let original = SingleAssignmentDisposable()
            subscription.disposable = original
            func arm(_ generation: Int) {
                timer.disposable = scheduler.scheduleRelative(generation, dueTime: dueTime) { generation in
                    let fires = state.withLock { state -> Bool in
                        guard !state.isSwitched, state.generation == generation else { return false }
                        state.isSwitched = true
                        return true
                    }
                    if fires { subscription.disposable = other.subscribe(observer) }
                    return Disposables.create()
                }
            }
            arm(0)
            original.setDisposable(
                source.subscribe { event in
                    let next = state.withLock { state -> Int? in
                        guard !state.isSwitched else { return nil }
                        state.generation += 1
                        if event.isStopEvent { state.isSwitched = true }
                        return state.generation
                    }
                    guard let next else { return }
                    if event.isStopEvent { timer.dispose() }
                    observer.on(event)
                    if !event.isStopEvent { arm(next) }
                })
            return Disposables.create(timer, subscription)
        }
    }
}

private struct TimeoutState {
    var generation = 0
    /// Whether the result follows `other` now, or has stopped.
    var isSwitched = false
}
