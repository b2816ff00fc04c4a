import Synchronization

extension ObservableType {
    /// Subscribes a closure that receives every event.
    public func subscribe(_ on: @escaping (Event<Element>) -> Void) -> any Disposable {
        subscribe(AnonymousObserver(on))
    }

    /// Subscribes closures for each kind of event.
    ///
    /// Contract: closures run on the thread that delivers the event; `onDisposed` runs once, after
    /// a stop event or on disposal. An error with no `onError` is reported with
    /// `assertionFailure` in debug builds, like RxSwift's unhandled-error hook.
    ///
    /// ```swift
    /// relay.subscribe(onNext: { print($0) }).disposed(by: bag)
    /// ```
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onError: ((any Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> any Disposable {
        let observer = CallbackObserver<Element>(
            onNext: onNext, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed)
        return observer.subscribe(to: asObservable())
    }

    /// Subscribes closures that receive `object` (held weakly) with each event; events after
    /// `object` is released are dropped.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onError: ((Object, any Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> any Disposable {
        subscribe(
            onNext: { [weak object] element in
                guard let object else { return }
                onNext?(object, element)
            },
            onError: { [weak object] error in
                guard let object else { return }
                onError?(object, error)
            },
            onCompleted: { [weak object] in
                guard let object else { return }
                onCompleted?(object)
            },
            onDisposed: { [weak object] in
                guard let object else { return }
                onDisposed?(object)
            })
    }
}

/// The observer of `subscribe(onNext:onError:onCompleted:onDisposed:)` and of `drive(onNext:…)`, and the
/// subscription they return: the callbacks, the upstream subscription and, for `drive`, the screen hop, in one
/// object.
///
/// (It replaces an observer, a disposable pairing the upstream subscription with an `onDisposed` action, and, for
/// `drive`, a screen-delivery sink with its single-assignment holder: four or five objects per binding.)
///
/// Contract: as the closures' subscribe: `onDisposed` runs once, after a stop event or on disposal; disposing
/// releases the closures and the upstream subscription at once; nothing is delivered after disposal. With a
/// `scheduler`, events are delivered on it: synchronously when they arrive there with nothing of this subscription
/// still queued, otherwise queued behind the earlier ones; the disposed check happens on the screen.
///
/// `@unchecked Sendable`: the stored `var`s are read and written only under `lock`, except `pending`, an atomic.
final class CallbackObserver<Element>: ObserverType, Cancelable, @unchecked Sendable {
    private let lock = InlineLock()
    private var onNext: ((Element) -> Void)?
    private var onError: ((any Error) -> Void)?
    private var onCompleted: (() -> Void)?
    private var onDisposed: (() -> Void)?
    private var upstream: (any Disposable)?
    /// Set by the stop event; no element is delivered after it.
    private var isStopped = false
    private var disposed = false
    private let scheduler: ScreenScheduler?
    /// Deliveries enqueued on `scheduler` and not yet run: while any is, a later event must queue behind it.
    private let pending = Atomic<Int>(0)

    init(
        onNext: ((Element) -> Void)?, onError: ((any Error) -> Void)?, onCompleted: (() -> Void)?,
        onDisposed: (() -> Void)?, scheduler: ScreenScheduler? = nil
    ) {
        self.onNext = onNext
        self.onError = onError
        self.onCompleted = onCompleted
        self.onDisposed = onDisposed
        self.scheduler = scheduler
        Resources.increment()
    }

    deinit {
        Resources.decrement()
    }

    var isDisposed: Bool {
        lock.withLock { disposed }
    }

    /// Subscribes to `source` and returns the subscription: this object itself where `source` releases its
    /// observers when it goes (a subject), otherwise this object paired with the source's subscription, which this
    /// object must not hold (the source's sinks hold this object: a cycle that would outlive a dropped source).
    func subscribe(to source: Observable<Element>) -> any Disposable {
        let subscription = source.subscribe(self)
        guard source.releasesObserversWithSource else { return BinaryDisposable(subscription, self) }
        setUpstream(subscription)
        return self
    }

    /// Keeps the upstream subscription for `dispose()`; disposes it at once when this subscription has already
    /// stopped (a synchronous source that completed inside `subscribe`) or been disposed.
    private func setUpstream(_ disposable: any Disposable) {
        let keep = lock.withLock { () -> Bool in
            guard !isStopped && !disposed else { return false }
            upstream = disposable
            return true
        }
        if !keep { disposable.dispose() }
    }

    func on(_ event: Event<Element>) {
        guard let scheduler, pending.load(ordering: .acquiring) != 0 || !scheduler.isCurrent else {
            deliver(event)
            return
        }
        pending.wrappingAdd(1, ordering: .acquiringAndReleasing)
        enqueue(
            { [self] in
                deliver(event)
                pending.wrappingSubtract(1, ordering: .acquiringAndReleasing)
            }, on: scheduler)
    }

    private func deliver(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            // Events are serialised by the grammar; the lock orders this read against a `dispose()` elsewhere.
            // Assigned rather than returned: a closure returned through `withLock`'s generic result would be
            // re-wrapped (a thunk allocated) on every element.
            var onNext: ((Element) -> Void)?
            lock.withLock { if !isStopped && !disposed { onNext = self.onNext } }
            onNext?(element)
        case .error(let error):
            guard let stopped = stop() else { return }
            if let onError = stopped.onError { onError(error) } else { reportUnhandledError(error) }
            finish(stopped)
        case .completed:
            guard let stopped = stop() else { return }
            stopped.onCompleted?()
            finish(stopped)
        }
    }

    /// What a stop event or `dispose()` takes out of the object, to use after unlocking.
    private struct Taken {
        var onError: ((any Error) -> Void)?
        var onCompleted: (() -> Void)?
        var onDisposed: (() -> Void)?
        var upstream: (any Disposable)?
    }

    /// Marks the subscription stopped and takes everything out of it; `nil` when it already was stopped or
    /// disposed. Under the lock.
    private func stop() -> Taken? {
        lock.withLock { () -> Taken? in
            guard !isStopped && !disposed else { return nil }
            isStopped = true
            return takeAll()
        }
    }

    /// Under the lock.
    private func takeAll() -> Taken {
        let taken = Taken(onError: onError, onCompleted: onCompleted, onDisposed: onDisposed, upstream: upstream)
        onNext = nil
        onError = nil
        onCompleted = nil
        onDisposed = nil
        upstream = nil
        return taken
    }

    private func finish(_ taken: Taken) {
        taken.upstream?.dispose()
        taken.onDisposed?()
    }

    func dispose() {
        let taken = lock.withLock { () -> Taken? in
            guard !disposed else { return nil }
            disposed = true
            return takeAll()
        }
        guard let taken else { return }
        finish(taken)
    }
}

/// An error nobody handles is a programmer error.
func reportUnhandledError(_ error: any Error, file: StaticString = #fileID, line: UInt = #line) {
    #if DEBUG
        assertionFailure("Unhandled error in a Reactive subscription: \(error)", file: file, line: line)
    #endif
}
