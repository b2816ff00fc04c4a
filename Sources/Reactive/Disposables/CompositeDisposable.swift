import Primitives

/// A group of disposables disposed together; members can be removed by key before that.
///
/// Contract: thread-safe; disposes after unlocking; inserting into a disposed composite disposes
/// the argument at once and returns `nil`.
///
/// ```swift
/// let composite = CompositeDisposable()
/// let key = composite.insert(subscription)
/// composite.remove(for: key!)
/// ```
public final class CompositeDisposable: Cancelable, Sendable {
    /// Identifies one member, for `remove(for:)`.
    public struct DisposeKey: Hashable, Sendable {
        fileprivate let value: Int
    }

    private struct State {
        var disposables: [Int: any Disposable] = [:]
        var order: [Int] = []
        var nextKey = 0
        var isDisposed = false
    }

    private let state = Locked(State())

    /// Creates an empty composite.
    public init() {
        Resources.increment()
    }

    /// Creates a composite holding the arguments.
    public convenience init(_ disposable1: any Disposable, _ disposable2: any Disposable) {
        self.init(disposables: [disposable1, disposable2])
    }

    /// Creates a composite holding the arguments.
    public convenience init(
        _ disposable1: any Disposable, _ disposable2: any Disposable, _ disposable3: any Disposable
    ) {
        self.init(disposables: [disposable1, disposable2, disposable3])
    }

    /// Creates a composite holding `disposables`.
    public convenience init(disposables: [any Disposable]) {
        self.init()
        for disposable in disposables { _ = insert(disposable) }
    }

    deinit {
        Resources.decrement()
    }

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool {
        state.withLock { $0.isDisposed }
    }

    /// The number of members not yet disposed or removed.
    public var count: Int {
        state.withLock { $0.disposables.count }
    }

    /// Adds `disposable`; returns its key, or `nil` (after disposing it) when already disposed.
    @discardableResult
    public func insert(_ disposable: any Disposable) -> DisposeKey? {
        let key = state.withLock { state -> DisposeKey? in
            guard !state.isDisposed else { return nil }
            let key = state.nextKey
            state.nextKey += 1
            state.disposables[key] = disposable
            state.order.append(key)
            return DisposeKey(value: key)
        }
        if key == nil { disposable.dispose() }
        return key
    }

    /// Removes the member for `key` and disposes it.
    public func remove(for key: DisposeKey) {
        let removed = state.withLock { state -> (any Disposable)? in
            state.disposables.removeValue(forKey: key.value)
        }
        removed?.dispose()
    }

    /// Disposes every member, in insertion order.
    public func dispose() {
        let taken = state.withLock { state -> [any Disposable] in
            guard !state.isDisposed else { return [] }
            state.isDisposed = true
            let taken = state.order.compactMap { state.disposables[$0] }
            state.disposables = [:]
            state.order = []
            return taken
        }
        for disposable in taken { disposable.dispose() }
    }
}
