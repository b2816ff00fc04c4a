/// A subject that sends each event to the observers subscribed at the time; a late subscriber
/// receives only the stop event.
///
/// Contract: thread-safe; each observer receives events one at a time, in the order the subject
/// accepted them, on the emitting thread (or on the thread draining that observer's queue when
/// emissions race); nothing after the stop event; no call-out while locked.
///
/// ```swift
/// let taps = PublishSubject<Void>()
/// taps.subscribe(onNext: { print("tap") }).disposed(by: bag)
/// taps.onNext(())
/// ```
public final class PublishSubject<Element>: SubjectType, ObserverType, Cancelable {
    @usableFromInline let core = SubjectCore<Element>(bufferLimit: 0, replaysAfterStop: false)

    /// Creates a subject with no observers.
    @inlinable public init() {}

    /// Whether anyone is subscribed.
    public var hasObservers: Bool {
        core.hasObservers
    }

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool {
        core.isDisposed
    }

    /// Sends `event` to every current observer.
    public func on(_ event: Event<Element>) {
        core.on(event)
    }

    /// Sends `element` to every current observer: `on(.next(element))`, without making the event.
    public func onNext(_ element: Element) {
        core.onNext(element)
    }

    /// Subscribes `observer`.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        core.subscribe(observer)
    }

    /// The subject as an observer.
    public func asObserver() -> PublishSubject<Element> {
        self
    }

    /// The subject as a sequence.
    public func asObservable() -> Observable<Element> {
        core
    }

    /// Drops every observer; later subscribers receive `RxError.disposed`.
    public func dispose() {
        core.dispose()
    }
}

// `@unchecked`: the one stored property is the `SubjectCore`, the lock box of the subject's state. Being the
// subject's `Observable` too, it cannot be `Sendable` in the checked sense (no `Observable` is).
extension PublishSubject: @unchecked Sendable where Element: Sendable {}
