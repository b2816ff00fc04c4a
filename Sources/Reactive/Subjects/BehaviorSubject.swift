/// A subject that holds a current value and sends it to each new subscriber, then every later
/// event.
///
/// Contract: as `PublishSubject`; the replay happens synchronously in `subscribe`. After the
/// stop event a new subscriber receives only the stop event.
///
/// ```swift
/// let count = BehaviorSubject(value: 0)
/// count.subscribe(onNext: { print($0) })   // prints 0
/// count.onNext(1)                          // prints 1
/// ```
public final class BehaviorSubject<Element>: SubjectType, ObserverType, Cancelable {
    @usableFromInline let core: SubjectCore<Element>

    /// Creates a subject whose current value is `value`.
    @inlinable public init(value: Element) {
        core = SubjectCore(value: value)
    }

    /// The current value. Throws the error the subject failed with, or `RxError.disposed`.
    public func value() throws -> Element {
        try core.latest(describing: "BehaviorSubject")
    }

    /// Whether anyone is subscribed.
    public var hasObservers: Bool {
        core.hasObservers
    }

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool {
        core.isDisposed
    }

    /// Makes a `next` element the current value and sends `event` to every observer.
    public func on(_ event: Event<Element>) {
        core.on(event)
    }

    /// Makes `element` the current value and sends it to every observer: `on(.next(element))`, without making the
    /// event.
    public func onNext(_ element: Element) {
        core.onNext(element)
    }

    /// Subscribes `observer`, replaying the current value to it first.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        core.subscribe(observer)
    }

    /// The subject as an observer.
    public func asObserver() -> BehaviorSubject<Element> {
        self
    }

    /// The subject as a sequence.
    public func asObservable() -> Observable<Element> {
        core
    }

    /// Drops every observer and the value; later subscribers receive `RxError.disposed`.
    public func dispose() {
        core.dispose()
    }
}

// `@unchecked`: the one stored property is the `SubjectCore`, the lock box of the subject's state. Being the
// subject's `Observable` too, it cannot be `Sendable` in the checked sense (no `Observable` is).
extension BehaviorSubject: @unchecked Sendable where Element: Sendable {}
