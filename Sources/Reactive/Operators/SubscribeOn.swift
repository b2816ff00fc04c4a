extension ObservableType {
    /// Subscribes to this sequence (and disposes that subscription) on `scheduler`.
    ///
    /// ```swift
    /// store.load(id).subscribe(on: ConcurrentDispatchQueueScheduler(qos: .userInitiated))
    /// ```
    public func subscribe(on scheduler: any ImmediateSchedulerType) -> Observable<Element> {
        // The source itself, not `asObservable()`: wrapping a plain `ObservableType` in `create` would dispose its
        // subscription at once when it ends, where RxSwift (and this documentation) dispose it on `scheduler`.
        let source = self
        return Observable.create { observer in
            let subscription = SingleAssignmentDisposable()
            let scheduled = scheduler.schedule(()) { _ in
                subscription.setDisposable(source.subscribe(observer))
                return Disposables.create()
            }
            return Disposables.create {
                scheduled.dispose()
                _ = scheduler.schedule(()) { _ in
                    subscription.dispose()
                    return Disposables.create()
                }
            }
        }
    }
}
