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
final class ScreenDeliverySink<Observer: ObserverType>: ObserverType, Cancelable {
    typealias Element = Observer.Element

    private let hop: ScreenHop
    private let observer: Observer
    private let disposed = Atomic<Bool>(false)
    private let upstream = SingleAssignmentDisposable()

    init(_ observer: Observer, on scheduler: ScreenScheduler) {
        self.observer = observer
        hop = ScreenHop(scheduler)
        Resources.increment()
    }

    deinit {
        Resources.decrement()
    }

    var isDisposed: Bool {
        disposed.load(ordering: .acquiring)
    }

    func setUpstream(_ disposable: any Disposable) {
        upstream.setDisposable(disposable)
    }

    func on(_ event: Event<Element>) {
        hop.run { [self] in
            guard !isDisposed else { return }
            observer.on(event)
            if event.isStopEvent { dispose() }
        }
    }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        upstream.dispose()
    }
}

extension Observable {
    /// Delivers on the screen scheduler current at subscription time; passes events through
    /// unchanged when subscribed off any screen.
    func deliveredOnSubscribingScreen() -> Observable<Element> {
        let source = self
        return AnonymousProducer { observer in
            guard let scheduler = ScreenScheduler.current else {
                return source.subscribe(observer)
            }
            let sink = ScreenDeliverySink(observer, on: scheduler)
            sink.setUpstream(source.subscribe(sink))
            return sink
        }
    }
}

/// An observable whose subscription is exactly `handler`, with no grammar-enforcing sink in
/// between (for internal producers that forward to a sink of their own).
final class AnonymousProducer<Element>: Observable<Element> {
    private let handler: (AnyObserver<Element>) -> any Disposable

    init(_ handler: @escaping (AnyObserver<Element>) -> any Disposable) {
        self.handler = handler
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        handler(AnyObserver(observer))
    }
}
