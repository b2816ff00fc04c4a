import Primitives

/// Serialises the output of an operator with several inputs (several sources, timers):
/// state changes and the events they produce happen under one lock, in one order, and the events
/// are delivered outside the lock by whichever thread finds the outbox idle.
///
/// So concurrent inputs never call the observer at the same time, the grammar holds (nothing
/// after a stop event), and re-entrant input from inside the observer is queued, not nested.
final class Serializer<State, Element> {
    struct Outbox {
        fileprivate(set) var events: [Event<Element>] = []
        fileprivate(set) var isStopped: Bool

        /// Queues `event` unless a stop event was already queued.
        mutating func send(_ event: Event<Element>) {
            guard !isStopped else { return }
            if event.isStopEvent { isStopped = true }
            events.append(event)
        }

        mutating func onNext(_ element: Element) { send(.next(element)) }
    }

    private struct Box {
        var state: State
        var queue: [Event<Element>] = []
        var head = 0
        var isDraining = false
        var isStopped = false
    }

    private let box: Locked<Box>
    private let observer: AnyObserver<Element>

    init(_ state: State, observer: AnyObserver<Element>) {
        box = Locked(Box(state: state))
        self.observer = observer
        Resources.increment()
    }

    deinit {
        Resources.decrement()
    }

    /// Whether a stop event has been queued.
    var isStopped: Bool {
        box.withLock { $0.isStopped }
    }

    /// Runs `body` with the state under the lock, then delivers what it sent.
    func update<Result>(_ body: (inout State, inout Outbox) -> Result) -> Result {
        let (result, shouldDrain) = box.withLock { box -> (Result, Bool) in
            var outbox = Outbox(isStopped: box.isStopped)
            let result = body(&box.state, &outbox)
            box.isStopped = outbox.isStopped
            box.queue.append(contentsOf: outbox.events)
            guard !box.isDraining, box.head < box.queue.count else { return (result, false) }
            box.isDraining = true
            return (result, true)
        }
        if shouldDrain { drain() }
        return result
    }

    /// Sends one event without touching the state.
    func send(_ event: Event<Element>) {
        update { _, outbox in outbox.send(event) }
    }

    private func drain() {
        while let event = box.withLock({ box -> Event<Element>? in
            guard box.head < box.queue.count else {
                box.queue.removeAll(keepingCapacity: true)
                box.head = 0
                box.isDraining = false
                return nil
            }
            defer { box.head += 1 }
            return box.queue[box.head]
        }) {
            observer.on(event)
        }
    }
}
