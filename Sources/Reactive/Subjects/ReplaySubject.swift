/// A subject that replays the last `bufferSize` elements (and the stop event, if any) to each
/// new subscriber.
///
/// Contract: as `PublishSubject`; replay happens synchronously in `subscribe`.
///
/// ```swift
/// let history = ReplaySubject<Int>.create(bufferSize: 2)
/// ```
public final class ReplaySubject<Element>: SubjectType, ObserverType, Cancelable {
    private let core: SubjectCore<Element>

    private init(bufferSize: Int) {
        core = SubjectCore(bufferLimit: bufferSize, replaysAfterStop: true)
    }

    /// A subject replaying the last `bufferSize` elements.
    public static func create(bufferSize: Int) -> ReplaySubject<Element> {
        ReplaySubject(bufferSize: ProgrammerErrors.checkedCount(bufferSize, "ReplaySubject.create(bufferSize:)"))
    }

    /// A subject replaying every element it ever received.
    public static func createUnbounded() -> ReplaySubject<Element> {
        ReplaySubject(bufferSize: Int.max)
    }

    /// Whether anyone is subscribed.
    public var hasObservers: Bool {
        core.hasObservers
    }

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool {
        core.isDisposed
    }

    /// Buffers a `next` element and sends `event` to every observer.
    public func on(_ event: Event<Element>) {
        core.on(event)
    }

    /// Subscribes `observer`, replaying the buffer to it first.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        core.subscribe(observer)
    }

    /// The subject as an observer.
    public func asObserver() -> ReplaySubject<Element> {
        self
    }

    /// The subject as a sequence.
    public func asObservable() -> Observable<Element> {
        core
    }

    /// Drops every observer and the buffer; later subscribers receive `RxError.disposed`.
    public func dispose() {
        core.dispose()
    }
}

// `@unchecked`: the one stored property is the `SubjectCore`, the lock box of the subject's state. Being the
// subject's `Observable` too, it cannot be `Sendable` in the checked sense (no `Observable` is).
extension ReplaySubject: @unchecked Sendable where Element: Sendable {}
