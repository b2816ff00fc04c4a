/// A resource that can be released: a subscription, a scheduled action, a connection.
///
/// Contract: `dispose()` is idempotent and thread-safe; after it returns, the subscription it
/// represents delivers nothing more (an event already being delivered on another thread may
/// still finish).
///
/// `Disposable` refines `SendableMetatype` so that unapplied method references on conforming
/// types (`unowned(self, in: Self.bindLoaded)`) can be captured without a Sendable warning.
///
/// ```swift
/// let subscription = relay.subscribe(onNext: { print($0) })
/// subscription.dispose()
/// ```
public protocol Disposable: SendableMetatype {
    /// Releases the resource. Calling it again does nothing.
    func dispose()
}

/// A disposable that can say whether it has been disposed.
public protocol Cancelable: Disposable {
    /// Whether `dispose()` has been called.
    var isDisposed: Bool { get }
}
