extension ObservableType {
    /// Sends elements for `duration` after subscription, timed on `scheduler`, then completes.
    ///
    /// ```swift
    /// locations.take(for: .seconds(30), scheduler: scheduler)
    /// ```
    public func take(for duration: RxTimeInterval, scheduler: any SchedulerType) -> Observable<Element> {
        let source = asObservable()
        return Observable.create { observer in
            let serializer = Serializer<Void, Element>((), observer: observer)
            let timer = scheduler.scheduleRelative((), dueTime: duration) { _ in
                serializer.send(.completed)
                return Disposables.create()
            }
            let subscription = source.subscribe { event in serializer.send(event) }
            return Disposables.create(timer, subscription)
        }
    }

    /// Drops the elements sent during `duration` after subscription, timed on `scheduler`, then sends the rest.
    ///
    /// ```swift
    /// positions.skip(.seconds(1), scheduler: scheduler)
    /// ```
    public func skip(_ duration: RxTimeInterval, scheduler: any SchedulerType) -> Observable<Element> {
        let source = asObservable()
        return Observable.create { observer in
            let serializer = Serializer<Bool, Element>(false, observer: observer)
            let timer = scheduler.scheduleRelative((), dueTime: duration) { _ in
                serializer.update { isOpen, _ in isOpen = true }
                return Disposables.create()
            }
            let subscription = source.subscribe { event in
                serializer.update { isOpen, outbox in
                    if case .next = event, !isOpen { return }
                    outbox.send(event)
                }
            }
            return Disposables.create(timer, subscription)
        }
    }
}
