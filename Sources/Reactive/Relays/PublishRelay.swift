/// A `PublishSubject` that can neither fail nor complete: `accept` is its only input.
///
/// Contract: thread-safe (see `PublishSubject`); never sends a stop event.
///
/// ```swift
/// let changes = PublishRelay<Movie>()
/// changes.accept(movie)
/// ```
public final class PublishRelay<Element>: ObservableType {
    private let subject = PublishSubject<Element>()

    /// Creates a relay with no observers.
    public init() {}

    /// Sends `event` to every current observer.
    public func accept(_ event: Element) {
        subject.onNext(event)
    }

    /// Subscribes `observer`.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        subject.subscribe(observer)
    }

    /// The relay as a sequence.
    public func asObservable() -> Observable<Element> {
        subject.asObservable()
    }
}

extension PublishRelay: Sendable where Element: Sendable {}
