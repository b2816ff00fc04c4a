extension ObservableType {
    /// Delivers on `scheduler` the newest element: one that arrives while an earlier one still waits for the
    /// scheduler replaces it (Kotlin's `conflate`). A terminal event is delivered after the last element; nothing
    /// after disposal.
    ///
    /// For state whose consumer needs only the latest value and can fall behind its producer: a screen showing a
    /// record that another thread keeps changing. With `observe(on:)` every intermediate value waits its turn, and
    /// a producer faster than the screen grows that queue without bound; here at most one element waits.
    ///
    /// ```swift
    /// store.changes(of: id).conflated(on: screenScheduler).bind(to: state)
    /// ```
    public func conflated(on scheduler: any ImmediateSchedulerType) -> Observable<Element> {
        let source = asObservable()
        return Observable.create { observer in
            let slot = ConflatedSlot(observer)
            let scheduled = SerialDisposable()
            let subscription = source.subscribe { event in
                guard slot.offer(event) else { return }
                scheduled.disposable = scheduler.schedule(slot) { slot in
                    slot.drain()
                    return Disposables.create()
                }
            }
            return Disposables.create(subscription, scheduled, Disposables.create { slot.dispose() })
        }
    }
}

/// The element (and terminal event) waiting for the scheduler, and whether a drain is already scheduled.
private final class ConflatedSlot<Element>: Sendable {
    private struct State {
        var latest: Element?
        var stop: Event<Element>?
        var isScheduled = false
        var isDisposed = false
        var observer: AnyObserver<Element>?
    }

    private let state: Locked<State>

    init(_ observer: AnyObserver<Element>) {
        state = Locked(State(observer: observer))
    }

    /// Keeps `event` (a newer element replaces a waiting one); returns whether the caller must schedule a drain.
    func offer(_ event: Event<Element>) -> Bool {
        state.withLock { state in
            guard !state.isDisposed, state.stop == nil else { return false }
            switch event {
            case .next(let element): state.latest = element
            case .error, .completed: state.stop = event
            }
            if state.isScheduled { return false }
            state.isScheduled = true
            return true
        }
    }

    /// Delivers what waits, on the scheduler; elements offered meanwhile wait for the drain they schedule.
    func drain() {
        let (element, stop, observer) = state.withLock { state in
            defer {
                state.latest = nil
                state.isScheduled = false
                if state.stop != nil { state.observer = nil }
            }
            return state.isDisposed ? (nil, nil, nil) : (state.latest, state.stop, state.observer)
        }
        guard let observer else { return }
        if let element { observer.onNext(element) }
        if let stop { observer.on(stop) }
    }

    func dispose() {
        state.withLock { state in
            state.isDisposed = true
            state.latest = nil
            state.observer = nil
        }
    }
}
