import Primitives
import Synchronization

/// Factory for the common disposables, as in RxSwift.
///
/// ```swift
/// return Disposables.create { timer.cancel() }
/// ```
public enum Disposables {
    /// A disposable that does nothing when disposed.
    public static func create() -> any Disposable {
        NopDisposable.instance
    }

    /// A disposable that runs `dispose` once, the first time it is disposed, on the disposing
    /// thread.
    public static func create(with dispose: @escaping () -> Void) -> any Cancelable {
        AnonymousDisposable(dispose)
    }

    /// A disposable that disposes both arguments.
    public static func create(_ disposable1: any Disposable, _ disposable2: any Disposable) -> any Cancelable {
        BinaryDisposable(disposable1, disposable2)
    }

    /// A disposable that disposes all three arguments.
    public static func create(
        _ disposable1: any Disposable, _ disposable2: any Disposable, _ disposable3: any Disposable
    ) -> any Cancelable {
        CompositeDisposable(disposable1, disposable2, disposable3)
    }

    /// A disposable that disposes every element of `disposables`.
    public static func create(_ disposables: [any Disposable]) -> any Cancelable {
        CompositeDisposable(disposables: disposables)
    }
}

/// Does nothing; shared.
final class NopDisposable: Disposable, Sendable {
    static let instance = NopDisposable()

    func dispose() {}
}

/// Runs its action once.
///
/// `@unchecked Sendable`: `action` is read and written only under `lock`.
final class AnonymousDisposable: Cancelable, @unchecked Sendable {
    private let lock = InlineLock()
    private var action: (() -> Void)?
    private let disposed = Atomic<Bool>(false)

    init(_ action: @escaping () -> Void) {
        self.action = action
        Resources.increment()
    }

    deinit {
        Resources.decrement()
    }

    var isDisposed: Bool {
        disposed.load(ordering: .acquiring)
    }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let taken = lock.withLock { () -> (() -> Void)? in
            defer { action = nil }
            return action
        }
        taken?()
    }
}

/// Disposes two disposables; the shape of almost every subscription.
///
/// `@unchecked Sendable`: `disposables` is read and written only under `lock`.
final class BinaryDisposable: Cancelable, @unchecked Sendable {
    private let lock = InlineLock()
    private var disposables: (any Disposable, any Disposable)?

    init(_ disposable1: any Disposable, _ disposable2: any Disposable) {
        disposables = (disposable1, disposable2)
        Resources.increment()
    }

    deinit {
        Resources.decrement()
    }

    var isDisposed: Bool {
        lock.withLock { disposables == nil }
    }

    func dispose() {
        let taken = lock.withLock { () -> (any Disposable, any Disposable)? in
            defer { disposables = nil }
            return disposables
        }
        taken?.0.dispose()
        taken?.1.dispose()
    }
}
