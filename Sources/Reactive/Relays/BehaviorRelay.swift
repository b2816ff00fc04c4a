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
    private let subject: BehaviorSubject<Element>

    /// Creates a relay whose current value is `value`.
    public init(value: Element) {
        subject = BehaviorSubject(value: value)
    }

    /// The current value.
    public var value: Element {
        // A relay never fails and is never disposed, so `value()` cannot throw.
        try! subject.value()
    }

    /// Makes `event` the current value and sends it to every observer.
    public func accept(_ event: Element) {
        subject.onNext(event)
    }

    /// Subscribes `observer`, replaying the current value to it first.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        subject.subscribe(observer)
    }

    /// The relay as a sequence.
    public func asObservable() -> Observable<Element> {
        subject.asObservable()
    }
}

extension BehaviorRelay: Sendable where Element: Sendable {}
