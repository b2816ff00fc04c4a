extension ObservableType {
    /// Subscribes to this sequence (and disposes that subscription) on `scheduler`.
    ///
    /// ```swift
    /// store.load(id).subscribe(on: ConcurrentDispatchQueueScheduler(qos: .userInitiated))
    /// ```
    public func subscribe(on scheduler: any ImmediateSchedulerType) -> Observable<Element> {
        let source = asObservable()
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
