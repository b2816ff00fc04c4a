extension ObservableType {
    /// Sends every element and the completion `dueTime` later on `scheduler`; an error passes at
    /// once.
    public func delay(_ dueTime: RxTimeInterval, scheduler: any SchedulerType) -> Observable<Element> {
        let source = asObservable()
        return Observable.create { observer in
            let serializer = Serializer<Void, Element>((), observer: observer)
            let timers = CompositeDisposable()
            let subscription = source.subscribe { event in
                if case .error = event {
                    serializer.send(event)
                    timers.dispose()
                    return
                }
                let scheduled = SingleAssignmentDisposable()
                guard let key = timers.insert(scheduled) else { return }
                scheduled.setDisposable(
                    scheduler.scheduleRelative(event, dueTime: dueTime) { event in
                        serializer.send(event)
                        timers.remove(for: key)
                        return Disposables.create()
                    })
            }
            return Disposables.create(subscription, timers)
        }
    }
}
