import Primitives

/// Holds a disposable that is set once, possibly after `dispose()` was already called (then it is
/// disposed on assignment). Sinks use it for their upstream subscription, which a synchronous
/// source may try to dispose before `subscribe` has even returned it.
///
/// ```swift
/// let upstream = SingleAssignmentDisposable()
/// upstream.setDisposable(source.subscribe(observer))
/// ```
///
/// `@unchecked Sendable`: its stored `var`s are read and written only under `lock` (the holder is the lock box of its
/// own state: one object, where a `Locked` state would add two).
public final class SingleAssignmentDisposable: Cancelable, @unchecked Sendable {
    private let lock = InlineLock()
    private var disposable: (any Disposable)?
    private var disposed = false
    private var isAssigned = false

    /// Creates an empty holder.
    public init() {}

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool {
        lock.withLock { disposed }
    }

    /// Stores `disposable`, or disposes it at once when this holder is already disposed. Called a second time, it
    /// reports a programmer error and disposes the second disposable.
    public func setDisposable(_ disposable: any Disposable) {
        let disposeNow = lock.withLock { () -> Bool? in
            guard !isAssigned else { return nil }
            isAssigned = true
            if disposed { return true }
            self.disposable = disposable
            return false
        }
        guard let disposeNow else {
            ProgrammerErrors.report(
                ProgrammerError(
                    mistake: "SingleAssignmentDisposable.setDisposable was called twice.",
                    fix: "use a SerialDisposable to replace what it holds, or a new SingleAssignmentDisposable."))
            disposable.dispose()
            return
        }
        if disposeNow { disposable.dispose() }
    }

    /// Disposes the held disposable, now or when it is set.
    public func dispose() {
        let taken = lock.withLock { () -> (any Disposable)? in
            guard !disposed else { return nil }
            disposed = true
            defer { disposable = nil }
            return disposable
        }
        taken?.dispose()
    }
}
