import Primitives
import Synchronization

/// The one sink of the module, as RxSwift's `Sink`: forwards events to one observer, enforcing the grammar (nothing
/// after a stop event) and disposal (nothing after `dispose()`), and owns the upstream subscription, which it disposes
/// with itself and after a stop event.
///
/// `create`'s observer is one (``AnonymousSink``), so every operator built on `create` runs on it; the operators with
/// sinks of their own (map, filter, distinctUntilChanged, the hop onto a subscribing screen) derive from it and
/// forward to the downstream observer directly, without `create`'s closure layers.
class Sink<Observer: ObserverType>: Cancelable {
    private static var stopped: UInt32 { 1 }
    private static var disposed: UInt32 { 2 }

    final let observer: Observer
    /// Half a word, beside the lock's: a sink a word smaller falls into malloc's next size class down for the common
    /// observers (Benchmarks/History/54-screen-memory-8.md).
    private let flags = Atomic<UInt32>(0)
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

    final func setUpstream(_ disposable: any Disposable) {
        // `dispose()` sets the flag before it takes the upstream under the lock, so either it finds the upstream
        // stored here or this finds the flag set.
        var disposeNow = false
        lock.withLock {
            if isDisposed { disposeNow = true } else { upstream = disposable }
        }
        if disposeNow { disposable.dispose() }
    }

    /// The upstream subscription, while there is one.
    final var upstreamSubscription: (any Disposable)? {
        lock.withLock { upstream }
    }

    final var isDisposed: Bool {
        flags.load(ordering: .acquiring) & Self.disposed != 0
    }

    final var isStoppedOrDisposed: Bool {
        flags.load(ordering: .acquiring) != 0
    }

    /// Sends an element unless stopped or disposed.
    @inline(__always)
    final func forward(_ element: Observer.Element) {
        if flags.load(ordering: .acquiring) == 0 { observer.onNext(element) }
    }

    /// Sends an event: an element unless stopped or disposed, or the first stop event (then disposes the upstream).
    @inline(__always)
    final func forward(event: Event<Observer.Element>) {
        if case .next = event {
            if flags.load(ordering: .acquiring) == 0 { observer.on(event) }
            return
        }
        forwardStop(event)
    }

    /// Sends the first stop event, then disposes the upstream subscription.
    final func forwardStop(_ event: Event<Observer.Element>) {
        let old = flags.bitwiseOr(Self.stopped, ordering: .acquiringAndReleasing).oldValue
        guard old == 0 else { return }
        observer.on(event)
        dispose()
    }

    final func dispose() {
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

/// The observer `create` hands its subscribe closure, and the sink of the sequences made from values: a ``Sink`` that
/// takes the downstream's own events, and pauses and resumes its upstream when that can.
final class AnonymousSink<Observer: ObserverType>: Sink<Observer>, ObserverType, PausableDisposable {
    typealias Element = Observer.Element

    func onNext(_ element: Element) {
        forward(element)
    }

    func on(_ event: Event<Element>) {
        forward(event: event)
    }

    /// Pauses the upstream subscription, when it is pausable.
    func pause() {
        (upstreamSubscription as? any PausableDisposable)?.pause()
    }

    /// Resumes the upstream subscription, when it is pausable.
    func resume() {
        (upstreamSubscription as? any PausableDisposable)?.resume()
    }
}
