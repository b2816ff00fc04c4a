/// Holds a disposable that is set once, possibly after `dispose()` was already called (then it is
/// disposed on assignment). Sinks use it for their upstream subscription, which a synchronous
/// source may try to dispose before `subscribe` has even returned it.
///
/// ```swift
/// let upstream = SingleAssignmentDisposable()
/// upstream.setDisposable(source.subscribe(observer))
/// ```
public final class SingleAssignmentDisposable: Cancelable, Sendable {
    private struct State {
        var disposable: (any Disposable)?
        var isDisposed = false
        var isAssigned = false
    }

    private let state = Locked(State())

    /// Creates an empty holder.
    public init() {}

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool {
        state.withLock { $0.isDisposed }
    }

    /// Stores `disposable`, or disposes it at once when this holder is already disposed.
    /// Precondition: called at most once.
    public func setDisposable(_ disposable: any Disposable) {
        let disposeNow = state.withLock { state -> Bool in
            precondition(!state.isAssigned, "SingleAssignmentDisposable.setDisposable called twice")
            state.isAssigned = true
            if state.isDisposed { return true }
            state.disposable = disposable
            return false
        }
        if disposeNow { disposable.dispose() }
    }

    /// Disposes the held disposable, now or when it is set.
    public func dispose() {
        let taken = state.withLock { state -> (any Disposable)? in
            guard !state.isDisposed else { return nil }
            state.isDisposed = true
            defer { state.disposable = nil }
            return state.disposable
        }
        taken?.dispose()
    }
}
