import Primitives
import Synchronization

/// The one hop onto a screen, stored in the object whose deliveries it orders (a binder's box, a trait's delivery
/// sink, `drive`'s observer): a delivery runs at once when the calling thread runs a turn of the screen and nothing
/// of this hop is still queued there; otherwise it is queued on the screen's scheduler behind the earlier ones.
///
/// Queued work must call ``ran()`` when it has run: the owner's closure holds the owner, and the owner this hop (a
/// noncopyable value cannot be captured). Without a scheduler (made off any screen) every delivery runs at once.
struct ScreenHop: ~Copyable {
    let scheduler: ScreenScheduler?
    /// Deliveries queued on `scheduler` and not yet run: while any is, a later one must queue behind it.
    private let pending = Atomic<Int>(0)

    init(_ scheduler: ScreenScheduler?) {
        self.scheduler = scheduler
    }

    /// Whether a delivery must be queued rather than run now: off the screen, or behind earlier ones. The
    /// scheduler's key is compared with the thread's (``ScreenKey/isCurrent``), the one test of the current screen:
    /// asking the scheduler itself would retain and release it on every delivery.
    @inline(__always)
    var mustQueue: Bool {
        guard let key = scheduler?.confinementKey else { return false }
        return pending.load(ordering: .acquiring) != 0 || !key.isCurrent
    }

    /// Queues `work` on the screen; `work` calls ``ran()`` at its end. Runs it now when there is no screen.
    func queue(_ work: @escaping () -> Void) {
        pending.wrappingAdd(1, ordering: .acquiringAndReleasing)
        guard let scheduler else { return work() }
        enqueueWork(work, on: scheduler)
    }

    /// Counts off a queued delivery that has run.
    func ran() {
        pending.wrappingSubtract(1, ordering: .acquiringAndReleasing)
    }
}

/// A ``ScreenHop`` in an object of its own, for an owner that is a value (a ``Binder``).
final class ScreenHopBox: Sendable {
    let hop: ScreenHop

    init(_ scheduler: ScreenScheduler) {
        hop = ScreenHop(scheduler)
    }

    func run(_ work: @escaping () -> Void) {
        guard hop.mustQueue else { return work() }
        hop.queue { [self] in
            work()
            hop.ran()
        }
    }
}

/// Forwards events to `observer` on a screen scheduler; drops everything once disposed (checked
/// on the screen, so nothing reaches a torn-down screen).
///
/// A ``Sink`` with a ``ScreenHop`` of its own. The `asObservable()` of a trait subscribed on a screen goes through it;
/// `drive(onNext:)` and `emit(onNext:)` do not need it (their `CallbackObserver` holds the hop).
final class ScreenDeliverySink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let hop: ScreenHop

    init(_ observer: Observer, on scheduler: ScreenScheduler) {
        hop = ScreenHop(scheduler)
        super.init(observer)
    }

    func on(_ event: Event<Element>) {
        guard hop.mustQueue else { return forward(event: event) }
        hop.queue { [self] in
            forward(event: event)
            hop.ran()
        }
    }
}

/// Runs `work` later on `scheduler`. Not generic, so the `@Sendable` closure handed to the queue captures no
/// generic metadata; `work` (with the observer and event it holds) goes to the screen's thread alone.
func enqueueWork(_ work: @escaping () -> Void, on scheduler: ScreenScheduler) {
    let transfer = Transfer(work)
    scheduler.schedule { transfer.value() }
}

extension Observable {
    /// Delivers on the screen scheduler current at subscription time; off any screen, on the mock sharing scheduler
    /// if a test installed one, else passes events through unchanged.
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
            // Off every screen: on the mock sharing scheduler of a test, if one is installed.
            guard let mock = SharingScheduler.mock else { return source.subscribe(observer) }
            return source.observe(on: mock).subscribe(observer)
        }
        let sink = ScreenDeliverySink(observer, on: scheduler)
        sink.setUpstream(source.subscribe(sink))
        return sink
    }
}
