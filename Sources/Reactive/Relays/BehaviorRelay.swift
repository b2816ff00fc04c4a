/// A `BehaviorSubject` that can neither fail nor complete: it always has a `value`.
///
/// Contract: thread-safe (see `PublishSubject`); replays the current value to each new
/// subscriber synchronously; never sends a stop event.
///
/// ```swift
/// let rating = BehaviorRelay(value: 3)
/// rating.accept(rating.value + 1)
/// ```
public final class BehaviorRelay<Element>: ObservableType {
    // The subject's core itself, without a `BehaviorSubject` around it: one object less per relay.
    @usableFromInline let core: SubjectCore<Element>

    /// Creates a relay whose current value is `value`.
    @inlinable public init(value: Element) {
        core = SubjectCore(value: value)
    }

    /// The current value.
    public var value: Element {
        // A relay never fails and is never disposed, so `value()` cannot throw.
        try! core.latest(describing: "BehaviorRelay")
    }

    /// Makes `event` the current value and sends it to every observer.
    public func accept(_ event: Element) {
        core.onNext(event)
    }

    /// Subscribes `observer`, replaying the current value to it first.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        core.subscribe(observer)
    }

    /// The relay as a sequence.
    public func asObservable() -> Observable<Element> {
        core
    }
}

// `@unchecked`: the one stored property is the `SubjectCore`, the lock box of the subject's state. Being the
// subject's `Observable` too, it cannot be `Sendable` in the checked sense (no `Observable` is).
extension BehaviorRelay: @unchecked Sendable where Element: Sendable {}
