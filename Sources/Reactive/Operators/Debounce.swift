extension ObservableType {
    /// Sends an element only after `dueTime` has passed on `scheduler` without another element;
    /// on completion sends the pending element first. Errors pass at once.
    ///
    /// ```swift
    /// query.debounce(.milliseconds(300), scheduler: scheduler)
    /// ```
    public func debounce(_ dueTime: RxTimeInterval, scheduler: any SchedulerType) -> Observable<Element> {
        let source = asObservable()
        return Observable.create { observer in
            let serializer = Serializer<DebounceState<Element>, Element>(DebounceState(), observer: observer)
            let timer = SerialDisposable()
            let subscription = source.subscribe { event in
                switch event {
                case .next(let element):
                    let id = serializer.update { state, _ -> Int in
                        state.id += 1
                        state.pending = element
                        return state.id
                    }
                    let scheduled = SingleAssignmentDisposable()
                    timer.disposable = scheduled
                    scheduled.setDisposable(
                        scheduler.scheduleRelative(id, dueTime: dueTime) { id in
                            serializer.update { state, outbox in
                                guard state.id == id, let pending = state.pending else { return }
                                state.pending = nil
                                outbox.onNext(pending)
                            }
                            return Disposables.create()
                        })
                case .error:
                    serializer.update { state, outbox in
                        state.pending = nil
                        outbox.send(event)
                    }
                    timer.dispose()
                case .completed:
                    serializer.update { state, outbox in
                        if let pending = state.pending { outbox.onNext(pending) }
                        state.pending = nil
                        outbox.send(.completed)
                    }
                    timer.dispose()
                }
            }
            return Disposables.create(subscription, timer)
        }
    }
}

private struct DebounceState<Element> {
    var id = 0
    var pending: Element?
}
