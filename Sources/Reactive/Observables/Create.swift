import Primitives
import Synchronization

extension Observable {
    /// A sequence whose subscription runs `subscribe` with an observer for the new subscriber.
    ///
    /// The observer enforces the grammar (events after a stop event are dropped) and drops events
    /// after disposal; a stop event disposes the returned disposable.
    ///
    /// ```swift
    /// let numbers = Observable<Int>.create { observer in
    ///     observer.onNext(1)
    ///     observer.onCompleted()
    ///     return Disposables.create()
    /// }
    /// ```
    public static func create(_ subscribe: @escaping (AnyObserver<Element>) -> any Disposable) -> Observable<Element> {
        AnonymousObservable(subscribe)
    }
}

final class AnonymousObservable<Element>: Observable<Element> {
    private let handler: (AnyObserver<Element>) -> any Disposable

    init(_ handler: @escaping (AnyObserver<Element>) -> any Disposable) {
        self.handler = handler
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        let sink = Sink(observer)
        Trampoline.run { sink.setUpstream(handler(AnyObserver(sink))) }
        return sink
    }
}

/// Forwards events to one observer, enforcing the grammar and disposal; owns the upstream
/// subscription. Every operator is built on it.
final class Sink<Observer: ObserverType>: ObserverType, Cancelable, PausableDisposable {
    typealias Element = Observer.Element

    private static var stopped: Int { 1 }
    private static var disposed: Int { 2 }

    private let observer: Observer
    private let flags = Atomic<Int>(0)
    // The upstream subscription, set once, under `lock` (in this object rather than a single-assignment holder of
    // its own: one object less per sink), never held across a call out.
    private let lock = InlineLock()
    private var upstream: (any Disposable)?

    init(_ observer: Observer) {
        self.observer = observer
        Resources.increment()
    }

    deinit {
        Resources.decrement()
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

    var isDisposed: Bool {
        flags.load(ordering: .acquiring) & Self.disposed != 0
    }

    var isStoppedOrDisposed: Bool {
        flags.load(ordering: .acquiring) != 0
    }

    func onNext(_ element: Element) {
        if flags.load(ordering: .acquiring) == 0 { observer.onNext(element) }
    }

    func on(_ event: Event<Element>) {
        if case .next = event {
            if flags.load(ordering: .acquiring) == 0 { observer.on(event) }
            return
        }
        let old = flags.bitwiseOr(Self.stopped, ordering: .acquiringAndReleasing).oldValue
        guard old == 0 else { return }
        observer.on(event)
        dispose()
    }

    /// Pauses the upstream subscription, when it is pausable.
    func pause() {
        (lock.withLock { upstream } as? any PausableDisposable)?.pause()
    }

    /// Resumes the upstream subscription, when it is pausable.
    func resume() {
        (lock.withLock { upstream } as? any PausableDisposable)?.resume()
    }

    func dispose() {
        let old = flags.bitwiseOr(Self.disposed, ordering: .acquiringAndReleasing).oldValue
        guard old & Self.disposed == 0 else { return }
        var taken: (any Disposable)?
        lock.withLock {
            taken = upstream
            upstream = nil
        }
        taken?.dispose()
    }
}
