/// A sequence with a narrower contract than `Observable`, named by its `Trait`: the type behind `Single`, `Maybe` and
/// `Completable`, as in RxSwift 6.
///
/// Contract: the trait's grammar holds for every subscriber (a `Single` sends one element or an error; a `Maybe` one
/// element, nothing or an error; a `Completable` nothing but completion or an error); like an `Observable`, each
/// subscription is independent and nothing is delivered after disposal. Not `Sendable`, as `Observable`.
///
/// ```swift
/// func movie(id: Int) -> Single<Movie> { api.get("/movies/\(id)").asSingle() }
/// ```
public struct PrimitiveSequence<Trait, Element> {
    /// The underlying sequence, which keeps the trait's grammar.
    let source: Observable<Element>

    init(raw source: Observable<Element>) {
        self.source = source
    }
}

@available(*, unavailable)
extension PrimitiveSequence: Sendable {}

/// A type that is a `PrimitiveSequence`: what the traits' operators extend.
public protocol PrimitiveSequenceType {
    /// The trait (`SingleTrait`, `MaybeTrait` or `CompletableTrait`).
    associatedtype Trait
    /// The type of the element.
    associatedtype Element

    /// The sequence as a `PrimitiveSequence`.
    var primitiveSequence: PrimitiveSequence<Trait, Element> { get }
}

extension PrimitiveSequence: PrimitiveSequenceType {
    /// Returns itself.
    public var primitiveSequence: PrimitiveSequence<Trait, Element> {
        self
    }
}

extension PrimitiveSequence: ObservableConvertibleType {
    /// The trait as an `Observable` (which keeps the trait's grammar).
    public func asObservable() -> Observable<Element> {
        source
    }
}

extension PrimitiveSequence {
    /// A trait made anew by `factory` for each subscriber; a thrown error fails it.
    ///
    /// ```swift
    /// Single.deferred { .just(Date()) }
    /// ```
    public static func deferred(_ factory: @escaping () throws -> PrimitiveSequence<Trait, Element>)
        -> PrimitiveSequence<Trait, Element>
    {
        PrimitiveSequence(raw: Observable.deferred { try factory().source })
    }

    /// Delays every event but an error by `dueTime` on `scheduler`.
    public func delay(_ dueTime: RxTimeInterval, scheduler: any SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.delay(dueTime, scheduler: scheduler))
    }

    /// Delivers the events on `scheduler`.
    public func observe(on scheduler: any ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.observe(on: scheduler))
    }

    /// Subscribes (and disposes) on `scheduler`.
    public func subscribe(on scheduler: any ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.subscribe(on: scheduler))
    }

    /// Continues with the trait `handler` returns when this one fails.
    ///
    /// ```swift
    /// api.profile().catch { _ in .just(.guest) }
    /// ```
    public func `catch`(_ handler: @escaping (any Error) throws -> PrimitiveSequence<Trait, Element>)
        -> PrimitiveSequence<Trait, Element>
    {
        PrimitiveSequence(raw: source.catch { try handler($0).source })
    }

    /// Resubscribes whenever it fails, at most `maxAttemptCount` subscriptions in all.
    public func retry(_ maxAttemptCount: Int) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(maxAttemptCount))
    }

    /// Resubscribes when the sequence `notificationHandler` makes of the errors sends an element; see
    /// `ObservableType.retry(when:)`.
    public func retry<TriggerObservable: ObservableType, Error: Swift.Error>(
        when notificationHandler: @escaping (Observable<Error>) -> TriggerObservable
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(when: notificationHandler))
    }

    /// Fails with `RxError.timeout` unless the trait stops within `dueTime` on `scheduler`.
    public func timeout(_ dueTime: RxTimeInterval, scheduler: any SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.timeout(dueTime, scheduler: scheduler))
    }

    /// Switches to `other` unless the trait stops within `dueTime` on `scheduler`.
    public func timeout(
        _ dueTime: RxTimeInterval, other: PrimitiveSequence<Trait, Element>, scheduler: any SchedulerType
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.timeout(dueTime, other: other.source, scheduler: scheduler))
    }
}
