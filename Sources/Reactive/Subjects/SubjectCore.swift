import Primitives

/// The observer list behind every subject: thread-safe, never calls out while locked, and
/// serialises delivery per observer.
///
/// Each subscriber has a queue. An event is appended to every busy subscriber's queue under the lock, so
/// every observer sees events in the same order the subject accepted them; whoever finds a subscriber idle
/// claims it and delivers, outside the lock, then drains what was queued meanwhile. Concurrent emitters
/// therefore never deliver to one observer at the same time, re-entrant emission from inside an observer is
/// queued rather than nested, and a new subscriber receives its replay synchronously on the subscribing thread.
///
/// This code runs unspecialised for every element type of the app (it is reached through class dispatch from
/// other modules), and there each use of a generic type other than `Element` itself (`Event<Element>`, a
/// nested type, an array of one) costs a lookup in the runtime's metadata cache. So the state is stored on the
/// object behind a lock of concrete type, the stop event is kept without its element type, the subscriber list
/// holds plain references, and the common paths touch `Event` only where they must.
///
/// It is also the subject's read side (`asObservable()` of every subject and relay), so that neither observing a
/// subject nor wrapping it in a trait makes an object of its own.
///
/// Thread-safe: every stored `var` (and every `var` of an `Entry`) is read and written only under `lock`, which
/// makes this type the lock box of its own state. It cannot say so as `Sendable` (no `Observable` is), so the
/// subjects, relays and shared connections that hold it declare themselves `@unchecked Sendable`.
@usableFromInline
final class SubjectCore<Element>: Observable<Element> {
    /// How a subject stopped, without its element type (declared outside this generic class, whose nested types
    /// are generic too: their metadata would be looked up at run time where they are used).
    typealias Stop = SubjectStop

    /// How many elements a new subscriber receives (0: publish, 1: behavior, n: replay).
    let bufferLimit: Int
    /// Whether a subscriber arriving after the stop event gets the buffer too (replay does,
    /// behavior does not).
    let replaysAfterStop: Bool
    private let lock = InlineLock()
    // `@exclusivity(unchecked)` on the state below (receipt: `SubjectCore` in Benchmarks/History/26-receipts.md):
    // sound because it is read and written under `lock` only, never held across a call out (observers are called
    // after the lock is released).
    /// The earliest subscriber: most subjects have one, and it needs no array.
    @exclusivity(unchecked) private var firstEntry: Entry?
    /// The later subscribers in subscription order, each an `Entry` (kept as plain references: see the type's
    /// comment).
    @exclusivity(unchecked) private var laterEntries: [AnyObject] = []
    /// What a replay subject keeps for new subscribers.
    @exclusivity(unchecked) private var buffer: [Element]
    /// The element a subject that replays one keeps (a behavior subject's value, a `share(replay: 1)`'s latest), in
    /// memory of its own rather than in a one-element `buffer`: this class's code runs unspecialised, where replacing
    /// an array's element looks up the array type's metadata at run time on every element, for each screen of a
    /// fan-out; the element type's own metadata comes with the instance. Receipt for the pointer cell: `SubjectCore's
    /// value cell` in Benchmarks/History/26-receipts.md.
    @exclusivity(unchecked) private var value: UnsafeMutablePointer<Element>?
    /// Whether the one element replayed is kept in `value`.
    private var keepsValue: Bool { bufferLimit == 1 }
    @exclusivity(unchecked) private var stop: Stop?
    @exclusivity(unchecked) private var disposed = false

    @usableFromInline
    init(bufferLimit: Int, replaysAfterStop: Bool, initial: [Element] = []) {
        self.bufferLimit = bufferLimit
        self.replaysAfterStop = replaysAfterStop
        if bufferLimit == 1 && initial.count > 0 {
            buffer = []
            value.storeInCell(initial[initial.count - 1])
        } else {
            buffer = initial
        }
    }

    /// A behavior subject's core, holding `value`.
    @usableFromInline
    init(value: Element) {
        bufferLimit = 1
        replaysAfterStop = false
        buffer = []
        self.value.storeInCell(value)
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        subscribe(handler: observer.on)
    }

    override var releasesObserversWithSource: Bool {
        true
    }

    deinit {
        value.freeCell()
        // A subscription nobody disposed may be held by its own observer (`subscribe(onNext:)` returns its observer,
        // which keeps the entry to unsubscribe): releasing the observers here ends that pair with the subject.
        lock.withLock {
            firstEntry?.deactivate()
            for object in laterEntries { entry(object).deactivate() }
        }
    }

    var hasObservers: Bool {
        lock.withLock { firstEntry != nil }
    }

    /// Whether `dispose()` has been called.
    var isDisposed: Bool {
        lock.withLock { disposed }
    }

    /// The newest buffered element (a behavior subject's value). Throws the error the subject failed
    /// with, or `RxError.disposed`.
    func latest(describing subject: String) throws -> Element {
        try lock.withLock { () throws in
            if disposed { throw RxError.disposed(object: subject) }
            if case .error(let error) = stop { throw error }
            if let value { return value.pointee }
            return buffer[buffer.count - 1]
        }
    }

    // `unsafeDowncast` (receipt: `The downcasts` in Benchmarks/History/26-receipts.md): sound because the list holds
    // entries only; debug builds check it.
    @inline(__always)
    private func entry(_ object: AnyObject) -> Entry {
        unsafeDowncast(object, to: Entry.self)
    }

    func on(_ event: Event<Element>) {
        if case .next(let element) = event {
            onNext(element)
            return
        }
        // A stop event from here on (the code handles any event).
        // The idle entries this event claims: the first two without an array (see `onNext`).
        var first: Entry?
        var firstObserver: ((Event<Element>) -> Void)?
        var second: Entry?
        var others: [AnyObject] = []
        lock.withLock {
            guard stop == nil, !disposed else { return }
            switch event {
            case .next(let element):
                record(element)
            case .error(let error):
                stop = .error(error)
            case .completed:
                stop = .completed
            }
            if let firstEntry {
                claim(firstEntry, first: &first, firstObserver: &firstObserver, second: &second, others: &others) {
                    $0.enqueue(event)
                }
            }
            for object in laterEntries {
                claim(entry(object), first: &first, firstObserver: &firstObserver, second: &second, others: &others) {
                    $0.enqueue(event)
                }
            }
            if stop != nil {
                firstEntry = nil
                laterEntries = []
            }
        }
        guard let first else { return }
        deliver(event, to: firstObserver, of: first)
        drain(first)
        deliverToOthers(second, others) { entry, observer in deliver(event, to: observer, of: entry) }
    }

    /// `on(.next(element))` without an `Event` (the relays' and subjects' common path): the element goes into the
    /// buffer and to each entry as itself, and an `Event` is made only for an entry that is busy on another thread.
    func onNext(_ element: Element) {
        // The idle entries this element claims: almost always one or two (a relay read by a binder and by one more
        // subscription, as a screen's state is), held without an array; a third and more go in one.
        var first: Entry?
        var firstObserver: ((Event<Element>) -> Void)?
        var second: Entry?
        var others: [AnyObject] = []
        lock.withLock {
            guard stop == nil, !disposed else { return }
            record(element)
            if let firstEntry {
                claim(firstEntry, first: &first, firstObserver: &firstObserver, second: &second, others: &others) {
                    $0.enqueue(next: element)
                }
            }
            for object in laterEntries {
                claim(entry(object), first: &first, firstObserver: &firstObserver, second: &second, others: &others) {
                    $0.enqueue(next: element)
                }
            }
        }
        guard let first else { return }
        first.receive(next: element, via: firstObserver)
        drain(first)
        deliverToOthers(second, others) { entry, observer in entry.receive(next: element, via: observer) }
    }

    /// Keeps `element` for replay, as many as `bufferLimit` allows. Called under the lock.
    @inline(__always)
    private func record(_ element: Element) {
        if keepsValue {
            value.storeInCell(element)
        } else if bufferLimit > 0 {
            buffer.append(element)
            if buffer.count > bufferLimit {
                buffer.removeFirst(buffer.count - bufferLimit)
            }
        }
    }

    /// Delivers, with `send`, to the entries an event claimed after the first (`second`, then `others`), each if
    /// still active when its turn comes, and lets each drain what arrived for it meanwhile.
    @inline(__always)
    private func deliverToOthers(
        _ second: Entry?, _ others: [AnyObject], _ send: (Entry, ((Event<Element>) -> Void)?) -> Void
    ) {
        guard let second else { return }
        deliverToOther(second, send)
        for object in others { deliverToOther(entry(object), send) }
    }

    /// Delivers, with `send`, to an entry an event claimed after the first, if it is still active when its turn
    /// comes, and lets it drain what arrived for it meanwhile.
    @inline(__always)
    private func deliverToOther(_ entry: Entry, _ send: (Entry, ((Event<Element>) -> Void)?) -> Void) {
        var isActive = false
        var observer: ((Event<Element>) -> Void)?
        lock.withLock {
            isActive = entry.isActive
            observer = entry.observer
        }
        if isActive { send(entry, observer) }
        drain(entry)
    }

    /// Claims `entry` for this thread when it is idle and active (the first two claimed apart, so that one or two
    /// subscribers need no array), or hands what is being sent to `queue` when another thread is delivering to it
    /// (its drainer then delivers that after what it is delivering now). Under the lock.
    ///
    /// A method with `inout` parameters rather than a local function: a local function capturing the caller's
    /// variables made the compiler box each of them on the heap.
    @inline(__always)
    private func claim(
        _ entry: Entry, first: inout Entry?, firstObserver: inout ((Event<Element>) -> Void)?, second: inout Entry?,
        others: inout [AnyObject], orQueue queue: (Entry) -> Void
    ) {
        if entry.isDraining {
            queue(entry)
        } else if entry.isActive {
            entry.isDraining = true
            if first == nil {
                first = entry
                firstObserver = entry.observer
            } else if second == nil {
                second = entry
            } else {
                others.append(entry)
            }
        }
    }

    func subscribe(handler observer: @escaping (Event<Element>) -> Void) -> any Disposable {
        subscribeEntry(handler: observer) ?? Disposables.create()
    }

    /// `subscribe(handler:)`, returning the entry, or `nil` when the subject had stopped or was disposed (the
    /// observer has then received the stop event).
    func subscribeEntry(handler observer: @escaping (Event<Element>) -> Void) -> Entry? {
        let entry = ClosureEntry(observer)
        return subscribe(entry: entry) ? entry : nil
    }

    /// Subscribes `entry`; returns whether it was added (not when the subject had stopped or was disposed: the
    /// entry has then received the stop event).
    func subscribe(entry: Entry) -> Bool {
        entry.core = self
        // Not yet shared with another thread: its closure (if any) can be read without the lock.
        let observer = entry.observer
        if bufferLimit <= 1 { return subscribeWithoutBuffer(entry: entry, observer: observer) }
        var replay: [Element] = []
        var stopped: Stop?
        var failure: RxError?
        lock.withLock {
            if disposed {
                failure = RxError.disposed(object: "\(Self.self)")
            } else if let stop {
                if replaysAfterStop { replay = buffer }
                stopped = stop
            } else {
                replay = buffer
                if firstEntry == nil { firstEntry = entry } else { laterEntries.append(entry) }
            }
        }
        // The entry is claimed (`isDraining`) until `drain` finds it idle: events sent meanwhile queue behind
        // the replay.
        if !replay.isEmpty { self.replay(replay, to: observer, of: entry) }
        if let failure {
            deliverStop(.error(failure), to: observer, of: entry)
        } else if let stopped {
            deliverStop(stopped, to: observer, of: entry)
        }
        drain(entry)
        return failure == nil && stopped == nil
    }

    /// `subscribe(entry:)` for a subject that replays at most one element, kept in `value` (a behavior subject, a
    /// `share(replay: 1)`) or none (a publish subject): the value is copied out under the lock as the lock's result
    /// (no array or optional made for it, whose types' metadata and conformances this unspecialised code would look
    /// up), and the cases without one come out as a typed error.
    private func subscribeWithoutBuffer(entry: Entry, observer: ((Event<Element>) -> Void)?) -> Bool {
        do throws(SubjectNoValue) {
            var stopAfterReplay: Stop?
            let current = try lock.withLock { () throws(SubjectNoValue) -> Element in
                if disposed { throw .disposed }
                if let stop {
                    guard replaysAfterStop, let value else { throw .stopped(stop) }
                    stopAfterReplay = stop
                    return value.pointee
                }
                if firstEntry == nil { firstEntry = entry } else { laterEntries.append(entry) }
                guard let value else { throw .none }
                return value.pointee
            }
            // The entry is claimed (`isDraining`) until `drain` finds it idle: events sent meanwhile queue behind
            // the replay.
            replay(current, to: observer, of: entry)
            if let stopAfterReplay {
                deliverStop(stopAfterReplay, to: observer, of: entry)
                drain(entry)
                return false
            }
        } catch {
            switch error {
            case .disposed:
                deliverStop(.error(RxError.disposed(object: "\(Self.self)")), to: observer, of: entry)
                drain(entry)
                return false
            case .stopped(let stop):
                deliverStop(stop, to: observer, of: entry)
                drain(entry)
                return false
            case .none:
                break
            }
        }
        drain(entry)
        return true
    }

    @inline(never)
    private func replay(_ element: Element, to observer: ((Event<Element>) -> Void)?, of entry: Entry) {
        entry.receive(next: element, via: observer)
    }

    // The two below are kept out of `subscribe`, whose every call would otherwise look up `Event<Element>`'s
    // metadata for their temporaries.

    @inline(never)
    private func replay(_ elements: [Element], to observer: ((Event<Element>) -> Void)?, of entry: Entry) {
        for element in elements { entry.receive(next: element, via: observer) }
    }

    @inline(never)
    private func deliverStop(_ stop: Stop, to observer: ((Event<Element>) -> Void)?, of entry: Entry) {
        switch stop {
        case .error(let error): deliver(.error(error), to: observer, of: entry)
        case .completed: deliver(.completed, to: observer, of: entry)
        }
    }

    func unsubscribe(_ entry: Entry) {
        lock.withLock {
            entry.deactivate()
            if firstEntry === entry {
                // The next in subscription order becomes the first, so `firstEntry` is `nil` only with no entries.
                firstEntry = laterEntries.isEmpty ? nil : self.entry(laterEntries.removeFirst())
            } else if let index = laterEntries.firstIndex(where: { $0 === entry }) {
                laterEntries.remove(at: index)
            }
        }
    }

    func dispose() {
        lock.withLock {
            disposed = true
            firstEntry?.deactivate()
            for object in laterEntries { entry(object).deactivate() }
            firstEntry = nil
            laterEntries = []
            buffer = []
            value.freeCell()
            stop = nil
        }
    }

    /// Delivers what is queued for `entry` (which this thread has claimed), then marks it idle.
    private func drain(_ entry: Entry) {
        // Almost always nothing was queued meanwhile: settle that without the queued-event path, whose
        // `Event` locals need the event type's metadata.
        let isIdle = lock.withLock { () -> Bool in
            guard !entry.hasQueued else { return false }
            entry.isDraining = false
            return true
        }
        if !isIdle { drainQueued(entry) }
    }

    /// `drain` for an entry with queued events.
    @inline(never)
    private func drainQueued(_ entry: Entry) {
        while true {
            var observer: ((Event<Element>) -> Void)?
            var event: Event<Element>?
            lock.withLock {
                guard entry.isActive, let queue = entry.queue, Int(entry.head) < queue.count else {
                    entry.dropQueue()
                    entry.isDraining = false
                    return
                }
                observer = entry.observer
                event = queue[Int(entry.head)]
                entry.advanceHead()
            }
            guard let event else { return }
            deliver(event, to: observer, of: entry)
        }
    }

    private func deliver(_ event: Event<Element>, to observer: ((Event<Element>) -> Void)?, of entry: Entry) {
        entry.receive(event, via: observer)
        // Nothing follows a stop event: release the observer (and what it holds) now.
        if event.isStopEvent { lock.withLock { entry.deactivate() } }
    }
}

/// How a subject stopped, without its element type.
enum SubjectStop {
    case error(any Error)
    case completed
}

/// Why a new subscriber of a subject that replays at most one element gets none.
private enum SubjectNoValue: Error {
    case disposed
    case stopped(SubjectStop)
    case none
}
