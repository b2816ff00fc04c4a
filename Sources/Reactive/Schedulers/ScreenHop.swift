import Primitives
import Synchronization

/// Delivers work on one screen scheduler: synchronously when already on it with nothing of
/// this hop still queued, otherwise by enqueueing (so order is kept).
final class ScreenHop: Sendable {
    let scheduler: ScreenScheduler
    private let pending = Atomic<Int>(0)

    init(_ scheduler: ScreenScheduler) {
        self.scheduler = scheduler
    }

    func run(_ work: @escaping () -> Void) {
        if pending.load(ordering: .acquiring) == 0 && scheduler.isCurrent {
            work()
            return
        }
        pending.wrappingAdd(1, ordering: .acquiringAndReleasing)
        let transfer = Transfer(work)
        scheduler.schedule {
            transfer.value()
            self.pending.wrappingSubtract(1, ordering: .acquiringAndReleasing)
        }
    }
}

/// Forwards events to `observer` on a screen scheduler; drops everything once disposed (checked
/// on the screen, so nothing reaches a torn-down screen).
///
/// It does the hop's work itself (rather than holding a `ScreenHop`). The `asObservable()` of a trait subscribed on a
/// screen goes through it; `drive(onNext:)` and `emit(onNext:)` do not need it (their `CallbackObserver` hops).
final class ScreenDeliverySink<Observer: ObserverType>: ObserverType, Cancelable {
    typealias Element = Observer.Element

    private let scheduler: ScreenScheduler
    private let observer: Observer
    /// Deliveries enqueued on the scheduler and not yet run: while any is, a later event must queue behind it.
    private let pending = Atomic<Int>(0)
    private let disposed = Atomic<Bool>(false)
    // The upstream subscription, set once, under `lock` (in this object rather than a single-assignment holder of
    // its own: one object less per sink).
    private let lock = InlineLock()
    private var upstream: (any Disposable)?

    init(_ observer: Observer, on scheduler: ScreenScheduler) {
        self.observer = observer
        self.scheduler = scheduler
        Resources.increment()
    }

    deinit {
        Resources.decrement()
    }

    var isDisposed: Bool {
        disposed.load(ordering: .acquiring)
    }

    func setUpstream(_ disposable: any Disposable) {
        // `dispose()` sets the flag before it takes the upstream under the lock, so either it finds the upstream
        // stored here or this finds the flag set.
        var disposeNow = false
        lock.withLock {
            if isDisposed { disposeNow = true } else { upstream = disposable }
        }
        if disposeNow { disposable.dispose() }
    }

    func on(_ event: Event<Element>) {
        if pending.load(ordering: .acquiring) == 0 && scheduler.isCurrent {
            deliver(event)
            return
        }
        pending.wrappingAdd(1, ordering: .acquiringAndReleasing)
        enqueueWork(
            { [self] in
                deliver(event)
                pending.wrappingSubtract(1, ordering: .acquiringAndReleasing)
            }, on: scheduler)
    }

    private func deliver(_ event: Event<Element>) {
        guard !isDisposed else { return }
        observer.on(event)
        if event.isStopEvent { dispose() }
    }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var taken: (any Disposable)?
        lock.withLock {
            taken = upstream
            upstream = nil
        }
        taken?.dispose()
    }
}

/// Runs `work` later on `scheduler`. Not generic, so the `@Sendable` closure handed to the queue captures no
/// generic metadata; `work` (with the observer and event it holds) goes to the screen's thread alone.
func enqueueWork(_ work: @escaping () -> Void, on scheduler: ScreenScheduler) {
    let transfer = Transfer(work)
    scheduler.schedule { transfer.value() }
}

extension Observable {
    /// Delivers on the screen scheduler current at subscription time; passes events through
    /// unchanged when subscribed off any screen.
    func deliveredOnSubscribingScreen() -> Observable<Element> {
        ScreenDeliveryProducer(self)
    }
}

/// The observable of `deliveredOnSubscribingScreen()`: subscribes its observer through a `ScreenDeliverySink`
/// typed by the observer itself, with no type-erasing wrapper in between.
final class ScreenDeliveryProducer<Element>: Observable<Element> {
    private let source: Observable<Element>

    init(_ source: Observable<Element>) {
        self.source = source
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        guard let scheduler = ScreenScheduler.current else {
            return source.subscribe(observer)
        }
        let sink = ScreenDeliverySink(observer, on: scheduler)
        sink.setUpstream(source.subscribe(sink))
        return sink
    }
}
