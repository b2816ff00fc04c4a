/// A `ReplaySubject` that can neither fail nor complete: `accept` is its only input.
///
/// Contract: thread-safe (see `PublishSubject`); replays the last `bufferSize` elements to each new subscriber
/// synchronously; never sends a stop event.
///
/// ```swift
/// let messages = ReplayRelay<String>.create(bufferSize: 10)
/// messages.accept("Welcome")
/// ```
public final class ReplayRelay<Element>: ObservableType {
    // The subject's core itself, without a `ReplaySubject` around it: one object less per relay.
    @usableFromInline let core: SubjectCore<Element>

    private init(bufferSize: Int) {
        core = SubjectCore(bufferLimit: bufferSize, replaysAfterStop: true)
    }

    /// A relay replaying the last `bufferSize` elements (a negative size is a reported mistake and counts as 0).
    public static func create(bufferSize: Int) -> ReplayRelay<Element> {
        ReplayRelay(bufferSize: ProgrammerErrors.checkedCount(bufferSize, "ReplayRelay.create(bufferSize:)"))
    }

    /// A relay replaying every element it ever received.
    public static func createUnbound() -> ReplayRelay<Element> {
        ReplayRelay(bufferSize: Int.max)
    }

    /// Buffers `event` and sends it to every current observer.
    public func accept(_ event: Element) {
        core.onNext(event)
    }

    /// Subscribes `observer`, replaying the buffer to it first.
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
extension ReplayRelay: @unchecked Sendable where Element: Sendable {}
