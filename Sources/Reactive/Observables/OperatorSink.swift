import Primitives
import Synchronization

/// The base of the single-source operators' sinks (map, filter, distinctUntilChanged): it
/// forwards to the downstream observer directly, without the closure layers of `create`, and
/// enforces the grammar and disposal as `Sink` does.
class OperatorSink<Observer: ObserverType>: Cancelable {
    private static var stopped: Int { 1 }
    private static var disposed: Int { 2 }

    final let observer: Observer
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

    final func setUpstream(_ disposable: any Disposable) {
        // `dispose()` sets the flag before it takes the upstream under the lock, so either it finds the upstream
        // stored here or this finds the flag set.
        var disposeNow = false
        lock.withLock {
            if isDisposed { disposeNow = true } else { upstream = disposable }
        }
        if disposeNow { disposable.dispose() }
    }

    final var isDisposed: Bool {
        flags.load(ordering: .acquiring) & Self.disposed != 0
    }

    /// Sends an element unless stopped or disposed.
    @inline(__always)
    final func forward(_ element: Observer.Element) {
        if flags.load(ordering: .acquiring) == 0 { observer.onNext(element) }
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
