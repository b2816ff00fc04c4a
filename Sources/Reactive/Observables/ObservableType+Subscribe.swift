import Primitives
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
    // Inlinable, so that the observer is made where its element type is known: its type's metadata then comes from
    // a cache at the call site instead of a run-time lookup per subscription.
    @inlinable
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
/// `@unchecked Sendable`: the stored `var`s are read and written only under `lock`; the hop counts atomically.
@usableFromInline
final class CallbackObserver<Element>: SubjectCore<Element>.Entry, ObserverType, Cancelable, @unchecked Sendable {
    /// How an error with no `onError` is reported.
    @usableFromInline
    enum UnhandledError {
        /// As an unhandled error of a subscription (`subscribe`).
        case unhandled
        /// As the error of a binding, which must never fail (`bind(onNext:)`).
        case binding
    }

    /// The callbacks few subscriptions set (screens bind `onNext` alone), kept out of line: one reference in
    /// each subscription instead of three closures.
    private final class RareCallbacks {
        let onError: ((any Error) -> Void)?
        let onCompleted: (() -> Void)?
        let onDisposed: (() -> Void)?

        init(onError: ((any Error) -> Void)?, onCompleted: (() -> Void)?, onDisposed: (() -> Void)?) {
            self.onError = onError
            self.onCompleted = onCompleted
            self.onDisposed = onDisposed
        }
    }

    // The lock and the flags first: they fit in the word the entry's flags end.
    private let lock = InlineLock()
    /// Set by the stop event; no element is delivered after it.
    private var isStopped = false
    private var disposed = false
    private let unhandledError: UnhandledError
    private var onNext: ((Element) -> Void)?
    private var rare: RareCallbacks?
    /// For `drive`, the hop onto the screen; without a scheduler, events are delivered where they arrive.
    private let hop: ScreenHop

    @usableFromInline
    init(
        onNext: ((Element) -> Void)?, onError: ((any Error) -> Void)? = nil, onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil, unhandledError: UnhandledError = .unhandled, scheduler: ScreenScheduler? = nil
    ) {
        self.onNext = onNext
        if onError != nil || onCompleted != nil || onDisposed != nil {
            rare = RareCallbacks(onError: onError, onCompleted: onCompleted, onDisposed: onDisposed)
        }
        self.unhandledError = unhandledError
        hop = ScreenHop(scheduler)
        // The entry's initialiser counts this object among the live resources.
        super.init()
    }

    @usableFromInline
    var isDisposed: Bool {
        lock.withLock { disposed }
    }

    /// Subscribes to `source` and returns the subscription: this object itself where `source` is a subject, whose
    /// entry this object then is (no closure, no entry of its own); otherwise this object paired with the source's
    /// subscription, which this object must not hold (the source's sinks hold this object: a cycle that would
    /// outlive a dropped source).
    @usableFromInline
    func subscribe(to source: Observable<Element>) -> any Disposable {
        guard source.releasesObserversWithSource else {
            return SourceSubscription(source.subscribe(self), self)
        }
        // Only a `SubjectCore` answers `releasesObserversWithSource` with true, which makes the cast sound (checked in
        // debug builds; receipt for skipping the check: `The downcasts` in Benchmarks/History/26-receipts.md).
        _ = unsafeDowncast(source, to: SubjectCore<Element>.self).subscribe(entry: self)
        return self
    }

    override func receive(_ event: Event<Element>, via observer: ((Event<Element>) -> Void)?) {
        on(event)
    }

    /// An element (a driver's current value replayed inside `drive`, or a later one): on the screen with nothing
    /// queued, straight to `onNext`, without an `Event` around it.
    override func receive(next element: Element, via observer: ((Event<Element>) -> Void)?) {
        guard hop.mustQueue else {
            deliverNext(element)
            return
        }
        enqueueNext(element)
    }

    // Out of `receive(next:via:)`, whose common path then makes no `Event` (and looks up no metadata for one).
    @inline(never)
    private func enqueueNext(_ element: Element) {
        enqueueDelivery(.next(element))
    }

    /// An element from an operator's sink: as `receive(next:via:)`, without an `Event` around it.
    @usableFromInline
    func onNext(_ element: Element) {
        receive(next: element, via: nil)
    }

    @usableFromInline
    func on(_ event: Event<Element>) {
        guard hop.mustQueue else {
            deliver(event)
            return
        }
        enqueueDelivery(event)
    }

    // Out of `on`, whose common path (already on the screen) then needs no metadata for the closure's captures.
    @inline(never)
    private func enqueueDelivery(_ event: Event<Element>) {
        hop.queue { [self] in
            deliver(event)
            hop.ran()
        }
    }

    private func deliver(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            deliverNext(element)
        case .error(let error):
            guard let stopped = stop() else { return }
            if let onError = stopped.rare?.onError {
                onError(error)
            } else if unhandledError == .binding {
                reportBindingError(error)
            } else {
                reportUnhandledError(error)
            }
            finish(stopped)
        case .completed:
            guard let stopped = stop() else { return }
            stopped.rare?.onCompleted?()
            finish(stopped)
        }
    }

    private func deliverNext(_ element: Element) {
        // Events are serialised by the grammar; the lock orders this read against a `dispose()` elsewhere.
        // Assigned rather than returned: a closure returned through `withLock`'s generic result would be re-wrapped
        // (a thunk allocated) on every element.
        var onNext: ((Element) -> Void)?
        lock.withLock { if !isStopped && !disposed { onNext = self.onNext } }
        onNext?(element)
    }

    /// What a stop event or `dispose()` takes out of the object, to use after unlocking.
    private struct Taken {
        var rare: RareCallbacks?
    }

    /// Marks the subscription stopped and takes everything out of it; `nil` when it already was stopped or
    /// disposed.
    private func stop() -> Taken? {
        var taken: Taken?
        lock.withLock {
            guard !isStopped && !disposed else { return }
            isStopped = true
            taken = takeAll()
        }
        return taken
    }

    /// Under the lock.
    private func takeAll() -> Taken {
        let taken = Taken(rare: rare)
        onNext = nil
        rare = nil
        return taken
    }

    private func finish(_ taken: Taken) {
        taken.rare?.onDisposed?()
    }

    @usableFromInline
    override func dispose() {
        var taken: Taken?
        lock.withLock {
            guard !disposed else { return }
            disposed = true
            taken = takeAll()
        }
        guard let taken else { return }
        // Leaves the subject, if subscribed to one as its entry.
        super.dispose()
        finish(taken)
    }
}

/// A ``CallbackObserver``'s subscription to a source other than a subject: the source's subscription, then the
/// observer, disposed in that order and once, as a `Disposables.create(_:_:)` pair. The observer is held as itself,
/// not as an existential: the pair is a malloc size class smaller (Benchmarks/History/54-screen-memory-8.md).
///
/// `@unchecked Sendable`: `source` is read and written only under `lock`; `observer` is a constant of a `Sendable`
/// type.
final class SourceSubscription<Element>: Cancelable, @unchecked Sendable {
    private let lock = InlineLock()
    private var source: (any Disposable)?
    private let observer: CallbackObserver<Element>

    init(_ source: any Disposable, _ observer: CallbackObserver<Element>) {
        self.source = source
        self.observer = observer
        Resources.increment()
    }

    deinit {
        Resources.decrement()
    }

    var isDisposed: Bool {
        lock.withLock { source == nil }
    }

    func dispose() {
        guard
            let source = lock.withLock({ () -> (any Disposable)? in
                defer { self.source = nil }
                return self.source
            })
        else { return }
        source.dispose()
        observer.dispose()
    }
}

/// An error nobody handles is a programmer error, reported (to the screen it runs on) in every build, as RxSwift
/// reports it and goes on; the subscription ends.
func reportUnhandledError(_ error: any Error, file: StaticString = #fileID, line: UInt = #line) {
    ProgrammerErrors.report(
        ProgrammerError(
            mistake: "An error reached subscribe(onNext:) without an onError handler (\(file):\(line)): \(error).",
            fix: "pass onError:, or handle the error upstream with catch(_:) or catchAndReturn(_:)."))
}
