/// Collects subscriptions and disposes them all when the bag is deallocated (or `dispose()`d).
///
/// Contract: thread-safe; disposes after unlocking, so a disposable that touches the bag again
/// does not deadlock; a disposable inserted into a disposed bag is disposed at once. Disposal
/// runs on the thread that releases the bag: tear a screen down on its own scheduler.
///
/// ```swift
/// bag.insert(
///     relay.bind(onNext: { print($0) }),
///     driver.data.drive(onNext: { print($0) })
/// )
/// button.rx.tap.bind(onNext: close).disposed(by: bag)
/// ```
public final class DisposeBag: Sendable {
    private struct State {
        var disposables: [any Disposable] = []
        var isDisposed = false
    }

    private let state = Locked(State())

    /// Creates an empty bag.
    public init() {}

    deinit {
        dispose()
    }

    /// Adds `disposable` to the bag, or disposes it at once when the bag is already disposed.
    public func insert(_ disposable: any Disposable) {
        let disposeNow = state.withLock { state -> Bool in
            if state.isDisposed { return true }
            state.disposables.append(disposable)
            return false
        }
        if disposeNow { disposable.dispose() }
    }

    /// Adds every argument to the bag, in order.
    public func insert(_ disposables: any Disposable...) {
        insert(disposables)
    }

    /// Adds every element of `disposables` to the bag, in order.
    public func insert(_ disposables: [any Disposable]) {
        let disposeNow = state.withLock { state -> Bool in
            if state.isDisposed { return true }
            state.disposables.append(contentsOf: disposables)
            return false
        }
        if disposeNow {
            for disposable in disposables { disposable.dispose() }
        }
    }

    /// Disposes everything in the bag, in insertion order; later insertions are disposed at once.
    /// RxSwift has no public `dispose()` on the bag (you replace the bag); this is the explicit
    /// form for screen teardown.
    public func dispose() {
        let taken = state.withLock { state -> [any Disposable] in
            state.isDisposed = true
            defer { state.disposables = [] }
            return state.disposables
        }
        for disposable in taken { disposable.dispose() }
    }
}

extension Disposable {
    /// Adds this disposable to `bag`.
    ///
    /// ```swift
    /// relay.subscribe(onNext: { print($0) }).disposed(by: bag)
    /// ```
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }
}
