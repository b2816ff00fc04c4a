/// The observer list behind every subject: thread-safe, never calls out while locked, and
/// serialises delivery per observer.
///
/// Each subscriber has a queue. An event is appended to every queue under the lock, so every
/// observer sees events in the same order the subject accepted them; then whoever finds a queue
/// idle drains it, outside the lock. Concurrent emitters therefore never deliver to one observer
/// at the same time, re-entrant emission from inside an observer is queued rather than nested,
/// and a new subscriber receives its replay synchronously on the subscribing thread.
final class SubjectCore<Element>: Sendable {
    final class Entry {
        var observer: ((Event<Element>) -> Void)?
        var queue: [Event<Element>] = []
        var head = 0
        var isDraining = true

        init(_ observer: @escaping (Event<Element>) -> Void) {
            self.observer = observer
            Resources.increment()
        }

        deinit {
            Resources.decrement()
        }

        /// The next queued event, or `nil` after marking the entry idle. Under the lock.
        func next() -> Event<Element>? {
            guard observer != nil, head < queue.count else {
                queue.removeAll(keepingCapacity: observer != nil)
                head = 0
                isDraining = false
                return nil
            }
            defer { head += 1 }
            return queue[head]
        }

        /// Stops deliveries and releases the observer. Under the lock.
        func deactivate() {
            observer = nil
            queue = []
            head = 0
        }
    }

    struct State {
        var entries: [Entry] = []
        var buffer: [Element] = []
        var stopEvent: Event<Element>?
        var isDisposed = false
    }

    /// How many elements a new subscriber receives (0: publish, 1: behavior, n: replay).
    let bufferLimit: Int
    /// Whether a subscriber arriving after the stop event gets the buffer too (replay does,
    /// behavior does not).
    let replaysAfterStop: Bool
    let state: Locked<State>

    init(bufferLimit: Int, replaysAfterStop: Bool, initial: [Element] = []) {
        self.bufferLimit = bufferLimit
        self.replaysAfterStop = replaysAfterStop
        state = Locked(State(buffer: initial))
    }

    var hasObservers: Bool {
        state.withLock { !$0.entries.isEmpty }
    }

    /// An idle entry claimed by an emitter, with its observer read under the same lock.
    private struct Delivery {
        let entry: Entry
        let observer: (Event<Element>) -> Void
    }

    func on(_ event: Event<Element>) {
        let deliveries = state.withLock { state -> [Delivery] in
            guard state.stopEvent == nil, !state.isDisposed else { return [] }
            switch event {
            case .next(let element):
                if bufferLimit > 0 {
                    state.buffer.append(element)
                    if state.buffer.count > bufferLimit {
                        state.buffer.removeFirst(state.buffer.count - bufferLimit)
                    }
                }
            case .error, .completed:
                state.stopEvent = event
            }
            var deliveries: [Delivery] = []
            deliveries.reserveCapacity(state.entries.count)
            for entry in state.entries {
                if entry.isDraining {
                    // Its drainer delivers this after what it is delivering now.
                    entry.queue.append(event)
                } else if let observer = entry.observer {
                    entry.isDraining = true
                    deliveries.append(Delivery(entry: entry, observer: observer))
                }
            }
            if event.isStopEvent { state.entries = [] }
            return deliveries
        }
        for delivery in deliveries {
            deliver(event, to: delivery.observer, of: delivery.entry)
            drain(delivery.entry)
        }
    }

    func subscribe(_ observer: @escaping (Event<Element>) -> Void) -> any Disposable {
        let entry = Entry(observer)
        let isSubscribed = state.withLock { state -> Bool in
            if state.isDisposed {
                entry.queue.append(.error(RxError.disposed(object: "\(Self.self)")))
                return false
            }
            if let stopEvent = state.stopEvent {
                if replaysAfterStop { entry.queue.append(contentsOf: state.buffer.map { .next($0) }) }
                entry.queue.append(stopEvent)
                return false
            }
            entry.queue.append(contentsOf: state.buffer.map { .next($0) })
            state.entries.append(entry)
            return true
        }
        drain(entry)
        return isSubscribed ? SubjectSubscription(core: self, entry: entry) : Disposables.create()
    }

    func unsubscribe(_ entry: Entry) {
        state.withLock { state in
            entry.deactivate()
            if let index = state.entries.firstIndex(where: { $0 === entry }) {
                state.entries.remove(at: index)
            }
        }
    }

    func dispose() {
        state.withLock { state in
            state.isDisposed = true
            for entry in state.entries { entry.deactivate() }
            state.entries = []
            state.buffer = []
            state.stopEvent = nil
        }
    }

    /// Delivers what is queued for `entry` (which this thread has claimed), then marks it idle.
    private func drain(_ entry: Entry) {
        while true {
            var observer: ((Event<Element>) -> Void)?
            let event = state.withLock { _ -> Event<Element>? in
                observer = entry.observer
                return entry.next()
            }
            guard let event, let observer else { return }
            deliver(event, to: observer, of: entry)
        }
    }

    private func deliver(_ event: Event<Element>, to observer: (Event<Element>) -> Void, of entry: Entry) {
        observer(event)
        // Nothing follows a stop event: release the observer (and what it holds) now.
        if event.isStopEvent { state.withLock { _ in entry.deactivate() } }
    }
}

/// One subscription to a subject; disposing it removes the observer and releases it.
final class SubjectSubscription<Element>: Disposable, Sendable {
    private let target: Locked<(SubjectCore<Element>, SubjectCore<Element>.Entry)?>

    init(core: SubjectCore<Element>, entry: SubjectCore<Element>.Entry) {
        target = Locked((core, entry))
    }

    func dispose() {
        let taken = target.withLock { target in
            defer { target = nil }
            return target
        }
        if let (core, entry) = taken { core.unsubscribe(entry) }
    }
}
