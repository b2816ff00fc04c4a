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
/// A ``Sink`` that does the hop's work itself (rather than holding a `ScreenHop`). The `asObservable()` of a trait
/// subscribed on a screen goes through it; `drive(onNext:)` and `emit(onNext:)` do not need it (their
/// `CallbackObserver` hops).
final class ScreenDeliverySink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let scheduler: ScreenScheduler
    /// Deliveries enqueued on the scheduler and not yet run: while any is, a later event must queue behind it.
    private let pending = Atomic<Int>(0)

    init(_ observer: Observer, on scheduler: ScreenScheduler) {
        self.scheduler = scheduler
        super.init(observer)
    }

    func on(_ event: Event<Element>) {
        if pending.load(ordering: .acquiring) == 0 && scheduler.isCurrent {
            forward(event: event)
            return
        }
        pending.wrappingAdd(1, ordering: .acquiringAndReleasing)
        enqueueWork(
            { [self] in
                forward(event: event)
                pending.wrappingSubtract(1, ordering: .acquiringAndReleasing)
            }, on: scheduler)
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
