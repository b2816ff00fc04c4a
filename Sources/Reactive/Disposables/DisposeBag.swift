import Primitives

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
///
/// `@unchecked Sendable`: its stored `var`s are read and written only under `lock`, which makes the bag the lock box
/// of its own state (one object per bag, where a `Locked` state would add two).
public final class DisposeBag: @unchecked Sendable {
    private let lock = InlineLock()
    private var isDisposed = false
    /// The disposables a ``compact()`` found to be objects, oldest first: each in two words, where the existential
    /// of `disposables` takes five (a screen's bag keeps them for the screen's life). All older than `disposables`.
    private var objects: [any Disposable & AnyObject] = []
    /// The other disposables, oldest first: all of them until a ``compact()``, then those it left and those added
    /// since.
    private var disposables: [any Disposable] = []

    /// Creates an empty bag.
    public init() {}

    deinit {
        dispose()
    }

    /// Adds `disposable` to the bag, or disposes it at once when the bag is already disposed.
    public func insert(_ disposable: any Disposable) {
        let disposeNow = lock.withLock { () -> Bool in
            if isDisposed { return true }
            // The list taken out, grown and put back whole: an access to `disposables` spanning the append (which may
            // reallocate and release the old storage) would need a run-time exclusivity check on every access to the
            // lists, `dispose()`'s and `contains(where:)`'s too (Benchmarks/History/69-exclusivity-by-shape-2.md).
            var list = self.disposables
            self.disposables = []
            list.append(disposable)
            self.disposables = list
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
        let disposeNow = lock.withLock { () -> Bool in
            if isDisposed { return true }
            // Taken out and put back, as in `insert(_:)`.
            var list = self.disposables
            self.disposables = []
            list.append(contentsOf: disposables)
            self.disposables = list
            return false
        }
        if disposeNow {
            for disposable in disposables { disposable.dispose() }
        }
    }

    /// Whether a disposable in the bag now satisfies `predicate`, asked of a copy of the lists, outside the lock.
    package func contains(where predicate: (any Disposable) -> Bool) -> Bool {
        // Copies, not the lists searched in place: an access to them that spans a call out would need a run-time
        // exclusivity check on every access to them (Benchmarks/History/65-exclusivity-by-shape.md).
        let (objects, disposables) = lock.withLock { (self.objects, self.disposables) }
        return objects.contains(where: predicate) || disposables.contains(where: predicate)
    }

    /// The disposables in the bag now, oldest first: the bag's own list, with no copy made, until a compaction.
    package var contents: [any Disposable] {
        let (objects, disposables) = lock.withLock { (self.objects, self.disposables) }
        return objects.isEmpty ? disposables : objects.map { $0 as any Disposable } + disposables
    }

    /// Gives the bag the room it holds and no more: for a bag that is filled once and then kept for long (a
    /// screen's, once the screen is built), where growing by doubling left up to half of it empty. When every
    /// disposable added since the last compaction is an object, they join ``objects`` (two words each instead of
    /// five); the conversion asks each one's type, which is why it happens here, once for a long-lived bag, and not
    /// on every insertion (a page's screens fill their bags and dispose of them in the same turn).
    package func compact() {
        lock.withLock {
            // Copies, for the casts below to run outside any access to the lists (Benchmarks/History/65).
            let (objects, disposables) = (self.objects, self.disposables)
            guard !disposables.isEmpty else { return }
            var converted: [any Disposable & AnyObject] = []
            converted.reserveCapacity(objects.count + disposables.count)
            converted.append(contentsOf: objects)
            for disposable in disposables {
                guard let object = disposable as? any Disposable & AnyObject else {
                    self.disposables = disposables.trimmingCapacity()
                    self.objects = objects.trimmingCapacity()
                    return
                }
                converted.append(object)
            }
            self.objects = converted
            self.disposables = []
        }
    }

    /// How many disposables the bag has room for without growing (for tests of ``compact()``).
    package var capacity: Int {
        lock.withLock { objects.capacity + disposables.capacity }
    }

    /// The bytes the bag's lists of disposables take for their elements (for tests of ``compact()``).
    package var elementBytes: Int {
        lock.withLock {
            objects.capacity * MemoryLayout<any Disposable & AnyObject>.stride
                + disposables.capacity * MemoryLayout<any Disposable>.stride
        }
    }

    /// Disposes everything in the bag, in insertion order; later insertions are disposed at once.
    /// RxSwift has no public `dispose()` on the bag (you replace the bag); this is the explicit
    /// form for screen teardown.
    public func dispose() {
        let (objects, taken) = lock.withLock { () -> ([any Disposable & AnyObject], [any Disposable]) in
            isDisposed = true
            defer {
                self.objects = []
                disposables = []
            }
            return (self.objects, disposables)
        }
        for object in objects { object.dispose() }
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
