internal import FoundationEssentials

extension ObservableType {
    /// Sends the first element, then at most one element per `dueTime` on `scheduler`: with
    /// `latest`, the last element of each window at its end; without, nothing from the window.
    /// On completion a pending latest element is sent first.
    ///
    /// ```swift
    /// taps.throttle(.seconds(1), scheduler: scheduler)
    /// ```
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true, scheduler: any SchedulerType)
        -> Observable<Element>
    {
        let source = asObservable()
        let window = dueTime.seconds
        return Observable.create { observer in
            let serializer = Serializer<ThrottleState<Element>, Element>(ThrottleState(), observer: observer)
            let timer = SerialDisposable()
            func sendNow(
                _ element: Element, state: inout ThrottleState<Element>,
                outbox: inout Serializer<ThrottleState<Element>, Element>.Outbox
            ) {
                state.pending = nil
                state.lastSent = scheduler.now
                outbox.onNext(element)
            }
            let subscription = source.subscribe { event in
                switch event {
                case .next(let element):
                    let wait = serializer.update { state, outbox -> Double? in
                        let now = scheduler.now
                        let remaining = state.lastSent.map { window - now.timeIntervalSince($0) } ?? 0
                        if remaining <= 0 {
                            sendNow(element, state: &state, outbox: &outbox)
                            return nil
                        }
                        guard latest else { return nil }
                        let isInFlight = state.pending != nil
                        state.pending = element
                        return isInFlight ? nil : remaining
                    }
                    guard let wait else { return }
                    let scheduled = SingleAssignmentDisposable()
                    timer.disposable = scheduled
                    scheduled.setDisposable(
                        scheduler.scheduleRelative((), dueTime: .nanoseconds(Int(wait * 1_000_000_000))) { _ in
                            serializer.update { state, outbox in
                                if let pending = state.pending { sendNow(pending, state: &state, outbox: &outbox) }
                                if state.isCompleted { outbox.send(.completed) }
                            }
                            return Disposables.create()
                        })
                case .error:
                    serializer.update { state, outbox in
                        state.pending = nil
                        outbox.send(event)
                    }
                case .completed:
                    serializer.update { state, outbox in
                        if state.pending != nil { state.isCompleted = true } else { outbox.send(.completed) }
                    }
                }
            }
            return Disposables.create(subscription, timer)
        }
    }
}

private struct ThrottleState<Element> {
    var pending: Element?
    var lastSent: Date?
    var isCompleted = false
}
