/// A `PublishSubject` that can neither fail nor complete: `accept` is its only input.
///
/// Contract: thread-safe (see `PublishSubject`); never sends a stop event.
///
/// ```swift
/// let changes = PublishRelay<Movie>()
/// changes.accept(movie)
/// ```
public final class PublishRelay<Element>: ObservableType {
    // The subject's core itself, without a `PublishSubject` around it: one object less per relay.
    @usableFromInline let core = SubjectCore<Element>(bufferLimit: 0, replaysAfterStop: false)

    /// Creates a relay with no observers.
    @inlinable public init() {}

    /// Sends `event` to every current observer.
    public func accept(_ event: Element) {
        core.onNext(event)
    }

    /// Subscribes `observer`.
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
extension PublishRelay: @unchecked Sendable where Element: Sendable {}
