public import Primitives

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
    // `@inlinable`, with the slot: the slot's code is then compiled where `Element` is known. Unspecialised, each
    // offer and drain would look up the metadata of `Element?`, `[Element]`, `Event<Element>` and their tuple at run
    // time, on every screen of a fan-out.
    @inlinable
    public func conflated(on scheduler: any ImmediateSchedulerType) -> Observable<Element> {
        let source = asObservable()
        return Observable.create { observer in
            let slot = ConflatedSlot(observer, scheduler)
            slot.follow(source.subscribe(ConflatedInlet(slot: slot, next: { slot.offer(.next($0)) })))
            // The slot is the subscription: it disposes itself, then the source's subscription it holds.
            return slot
        }
    }
}

/// What the source delivers to: elements through `next`, a closure made where `Element` is known (so the slot's
/// `offer` runs specialised), with no `Event` made on the way by the source's sinks; the rare terminal event
/// straight to the slot.
@usableFromInline
struct ConflatedInlet<Element>: ObserverType {
    @usableFromInline let slot: ConflatedSlot<Element>
    @usableFromInline let next: (Element) -> Void

    @inlinable
    init(slot: ConflatedSlot<Element>, next: @escaping (Element) -> Void) {
        self.slot = slot
        self.next = next
    }

    @inlinable
    func onNext(_ element: Element) {
        next(element)
    }

    @inlinable
    func on(_ event: Event<Element>) {
        slot.offer(event)
    }
}

/// The element (and terminal event) waiting for the scheduler, and whether a drain is already scheduled.
///
/// The waiting element is kept inline, as an optional, and the terminal event as a flag and an error, so the slot
/// holds at most one element (an `Event`, which can carry one, would make it two); a one-element array would look
/// up its storage class's metadata at run time for every element. (A cell of its own for the element was measured
/// and removed: `ConflatedSlot's element cell` in Benchmarks/History/26-receipts.md.)
///
/// It is also the subscription `conflated(on:)` returns, holding the source's: one object where a closure and a
/// disposable around it were two more, kept as long as the subscription (Benchmarks/History/54-screen-memory-8.md).
///
/// `@unchecked Sendable`: its fields are read and written under `lock` only; the observer is called on the
/// scheduler, one drain at a time. `@exclusivity(unchecked)` (receipt: `ConflatedSlot` in
/// Benchmarks/History/26-receipts.md) for the same reason: the lock serialises every access and none is held across
/// a call out.
@usableFromInline
final class ConflatedSlot<Element>: ScreenCatchUp, Disposable, @unchecked Sendable {
    @usableFromInline let lock = InlineLock()
    // The flags first, beside the lock, in the half word it leaves.
    @exclusivity(unchecked) @usableFromInline var isStopped = false
    @exclusivity(unchecked) @usableFromInline var isScheduled = false
    @exclusivity(unchecked) @usableFromInline var isDisposed = false
    /// Whether the slot pauses `upstream` while its screen holds (a screen's slot whose upstream can pause).
    @usableFromInline var pausesUpstream = false
    @exclusivity(unchecked) @usableFromInline var waiting: Element?
    @exclusivity(unchecked) @usableFromInline var stopError: (any Error)?
    @exclusivity(unchecked) @usableFromInline var observer: AnyObserver<Element>?
    /// The upstream subscription, disposed with the slot; under `lock`.
    @usableFromInline var upstream: (any Disposable)?
    // A screen scheduler takes plain work (no cancellable per drain): a fan-out drains once per screen.
    @usableFromInline let screen: ScreenScheduler?
    /// Any other scheduler, in a box of its own: a screen's slot, kept as long as the screen, then holds one
    /// reference where it held an existential.
    @usableFromInline let elsewhere: SchedulerBox?

    @inlinable
    init(_ observer: AnyObserver<Element>, _ scheduler: any ImmediateSchedulerType) {
        self.observer = observer
        screen = scheduler as? ScreenScheduler
        elsewhere = screen == nil ? SchedulerBox(scheduler) : nil
    }

    /// Keeps `subscription`, the upstream, to dispose with the slot (at once when the slot is disposed already), and
    /// on a screen holds and catches up with it from now on: the upstream is paused while the screen holds (when it
    /// is pausable), so a change costs the slot nothing then.
    @inlinable
    func follow(_ subscription: any Disposable) {
        let pausable = screen == nil ? nil : subscription as? any PausableDisposable
        let disposed = lock.withLock { () -> Bool in
            if isDisposed { return true }
            upstream = subscription
            pausesUpstream = pausable != nil
            return false
        }
        if disposed { return subscription.dispose() }
        guard let screen else { return }
        if screen.register(self) { pausable?.pause() }
    }

    /// The upstream when the slot pauses it.
    @inlinable
    var pausableUpstream: (any PausableDisposable)? {
        lock.withLock { pausesUpstream ? upstream : nil } as? any PausableDisposable
    }

    @inlinable
    package func hold() {
        pausableUpstream?.pause()
    }

    /// Lets the upstream deliver what it missed, drains what waits, and pauses the upstream again with `thenHold`.
    @inlinable
    package func catchUp(thenHold: Bool) {
        let upstream = pausableUpstream
        upstream?.resume()
        if lock.withLock({ isScheduled }) { drain() }
        if thenHold { upstream?.pause() }
    }

    /// Keeps `event` (a newer element replaces a waiting one) and schedules a drain unless one is waiting.
    @inlinable
    func offer(_ event: Event<Element>) {
        let mustSchedule = lock.withLock {
            guard !isDisposed, !isStopped else { return false }
            switch event {
            case .next(let element):
                waiting = element
            case .error(let error):
                isStopped = true
                stopError = error
            case .completed:
                isStopped = true
            }
            if isScheduled { return false }
            isScheduled = true
            return true
        }
        guard mustSchedule else { return }
        if let screen {
            // While no page watches the screen the element waits here, conflated, marked scheduled: later ones
            // only replace it, and the screen's resume drains it.
            _ = screen.scheduleUnlessHeld { { self.drain() } }
        } else if let elsewhere {
            _ = elsewhere.scheduler.schedule(self) { slot in
                slot.drain()
                return Disposables.create()
            }
        }
    }

    /// Delivers what waits, on the scheduler; elements offered meanwhile wait for the drain they schedule.
    @inlinable
    func drain() {
        let (taken, stop, observer) = lock.withLock {
            () -> (Element?, Event<Element>?, AnyObserver<Element>?) in
            let taken = waiting
            waiting = nil
            isScheduled = false
            defer { if isStopped { self.observer = nil } }
            guard !isDisposed else { return (taken, nil, nil) }
            let stop: Event<Element>? = isStopped ? stopError.map { .error($0) } ?? .completed : nil
            return (taken, stop, self.observer)
        }
        guard let observer else { return }
        if let taken { observer.onNext(taken) }
        if let stop { observer.on(stop) }
    }

    /// Stops delivering and disposes the upstream subscription, once.
    @inlinable
    func dispose() {
        let (wasDisposed, upstream) = lock.withLock { () -> (Bool, (any Disposable)?) in
            defer {
                isDisposed = true
                waiting = nil
                observer = nil
                self.upstream = nil
            }
            return (isDisposed, self.upstream)
        }
        if wasDisposed { return }
        screen?.unregister(self)
        upstream?.dispose()
    }
}

/// A scheduler other than a screen's, for a ``ConflatedSlot``.
@usableFromInline
final class SchedulerBox: Sendable {
    @usableFromInline let scheduler: any ImmediateSchedulerType

    @inlinable
    init(_ scheduler: any ImmediateSchedulerType) {
        self.scheduler = scheduler
    }
}
