import Primitives

/// Holds one replaceable disposable: setting a new one disposes the previous one.
///
/// Contract: thread-safe; after `dispose()`, assigned disposables are disposed at once.
///
/// ```swift
/// let current = SerialDisposable()
/// current.disposable = inner.subscribe(observer)   // disposes the previous inner subscription
/// ```
public final class SerialDisposable: Cancelable, Sendable {
    private struct State {
        var current: (any Disposable)?
        var isDisposed = false
    }

    private let state = Locked(State())

    /// Creates a holder with no disposable.
    public init() {
        Resources.increment()
    }

    deinit {
        Resources.decrement()
    }

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool {
        state.withLock { $0.isDisposed }
    }

    /// The current disposable. Setting it disposes the previous one (or the new one, when this
    /// holder is disposed).
    public var disposable: any Disposable {
        get {
            state.withLock { $0.current } ?? Disposables.create()
        }
        set {
            let old = state.withLock { state -> (any Disposable)? in
                if state.isDisposed { return newValue }
                defer { state.current = newValue }
                return state.current
            }
            old?.dispose()
        }
    }

    /// Disposes the current disposable and every later one.
    public func dispose() {
        let old = state.withLock { state -> (any Disposable)? in
            guard !state.isDisposed else { return nil }
            state.isDisposed = true
            defer { state.current = nil }
            return state.current
        }
        old?.dispose()
    }
}
