extension SubjectCore {
    /// One subscriber, and its subscription: disposing it removes the observer and releases it.
    ///
    /// An observer may be an entry itself (`CallbackObserver` is): it then overrides `receive(_:via:)` and needs no
    /// closure, and the subscription, the entry and the observer are one object.
    @usableFromInline
    class Entry: Disposable {
        /// Weak: the core holds its entries, and a subscription nobody disposes must not keep a dropped subject
        /// (and its observers) alive. Set before the entry is added, under the lock.
        weak var core: SubjectCore<Element>?
        /// The observer closure to read under the lock and call after it, for an entry that is not its own observer
        /// (a `ClosureEntry`): an entry that is its own observer stores none (and has no such field).
        var observer: ((Event<Element>) -> Void)? {
            nil
        }
        /// Events waiting while another thread delivers to this observer (under the lock); `nil` until the first
        /// one, so that creating and settling an entry never touches an array of events.
        var queue: [Event<Element>]?
        // The flags and `head` last and together, so that they share a word (and a subclass's first small fields
        // start the next): a `CallbackObserver` then fits the malloc size class below the one a word-sized `head`
        // took it to (Benchmarks/History/54-screen-memory-8.md).
        /// Whether events are delivered to this entry: until it is unsubscribed or has received a stop event.
        var isActive = true
        /// Whether `queue` holds events not yet delivered.
        var hasQueued = false
        /// Whether a thread has claimed this entry and is delivering to it.
        var isDraining = true
        /// The index in `queue` of the next event to deliver. Half a word: the drainer drops the delivered events
        /// before it would overflow (``advanceHead()``).
        var head: UInt32 = 0

        /// An entry, added later with `SubjectCore.subscribe(entry:)`.
        init() {
            Resources.increment()
        }

        /// Releases the observer, if the entry holds one apart from itself. Under the lock.
        func releaseObserver() {}

        /// Delivers `event`, outside the lock; `observer` is this entry's closure as read under the lock.
        func receive(_ event: Event<Element>, via observer: ((Event<Element>) -> Void)?) {
            observer?(event)
        }

        /// Delivers an element, outside the lock, as `receive(.next(element), via:)`: an entry that is its own
        /// observer may take the element without an `Event` made around it (whose type needs a metadata lookup in
        /// this unspecialised code).
        func receive(next element: Element, via observer: ((Event<Element>) -> Void)?) {
            receive(.next(element), via: observer)
        }

        deinit {
            Resources.decrement()
        }

        @usableFromInline
        func dispose() {
            core?.unsubscribe(self)
        }

        /// Appends `element` for this entry's drainer. Under the lock.
        @inline(never)
        func enqueue(next element: Element) {
            enqueue(.next(element))
        }

        /// Appends `event` for this entry's drainer. Under the lock.
        @inline(never)
        func enqueue(_ event: Event<Element>) {
            if queue == nil { queue = [] }
            queue!.append(event)
            hasQueued = true
        }

        /// Moves past the event at `head`, which the drainer has taken. Under the lock. A queue that has delivered
        /// as many events as `head` counts drops them first, so that `head` never overflows.
        func advanceHead() {
            if head == UInt32.max {
                queue!.removeFirst(Int(head))
                head = 0
            }
            head += 1
        }

        /// Forgets the queued events. Under the lock.
        @inline(never)
        func dropQueue() {
            queue = nil
            head = 0
            hasQueued = false
        }

        /// Stops deliveries and releases the observer. Under the lock.
        func deactivate() {
            isActive = false
            releaseObserver()
            if hasQueued { dropQueue() }
        }
    }

    /// The entry of an observer reached through a closure (any observer but a `CallbackObserver`).
    final class ClosureEntry: Entry {
        private var closure: ((Event<Element>) -> Void)?

        init(_ closure: @escaping (Event<Element>) -> Void) {
            self.closure = closure
        }

        override var observer: ((Event<Element>) -> Void)? {
            closure
        }

        override func releaseObserver() {
            closure = nil
        }
    }
}
