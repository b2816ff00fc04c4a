import Primitives

extension ObservableType {
    /// Delivers every event on `scheduler`, in order, one at a time; nothing after disposal.
    ///
    /// ```swift
    /// store.changes.observe(on: screenScheduler)
    /// ```
    public func observe(on scheduler: any ImmediateSchedulerType) -> Observable<Element> {
        let source = asObservable()
        return Observable.create { observer in
            let queue = ObserveOnQueue(observer)
            let scheduled = SerialDisposable()
            let subscription = source.subscribe { event in
                guard queue.enqueue(event) else { return }
                scheduled.disposable = scheduler.schedule(queue) { queue in
                    queue.drain()
                    return Disposables.create()
                }
            }
            return Disposables.create(subscription, scheduled, Disposables.create { queue.dispose() })
        }
    }
}

/// The events waiting for the scheduler, and whether a drain is already scheduled.
private final class ObserveOnQueue<Element>: Sendable {
    private struct State {
        var events: [Event<Element>] = []
        var head = 0
        var isScheduled = false
        var isDisposed = false
        var observer: AnyObserver<Element>?
    }

    private let state: Locked<State>

    init(_ observer: AnyObserver<Element>) {
        state = Locked(State(observer: observer))
    }

    /// Queues `event`; returns whether the caller must schedule a drain.
    func enqueue(_ event: Event<Element>) -> Bool {
        state.withLock { state in
            guard !state.isDisposed else { return false }
            state.events.append(event)
            if state.isScheduled { return false }
            state.isScheduled = true
            return true
        }
    }

    func drain() {
        while let (event, observer) = state.withLock({ state -> (Event<Element>, AnyObserver<Element>)? in
            guard !state.isDisposed, let observer = state.observer, state.head < state.events.count else {
                state.events.removeAll(keepingCapacity: !state.isDisposed)
                state.head = 0
                state.isScheduled = false
                return nil
            }
            defer { state.head += 1 }
            return (state.events[state.head], observer)
        }) {
            observer.on(event)
        }
    }

    func dispose() {
        state.withLock { state in
            state.isDisposed = true
            state.observer = nil
            state.events = []
            state.head = 0
        }
    }
}
