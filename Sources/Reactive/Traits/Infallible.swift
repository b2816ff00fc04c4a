/// A sequence that cannot fail, as RxSwift 6's `Infallible`: like an `Observable` without the error event, and unlike
/// a `Driver` it neither shares its source nor moves delivery onto a screen.
///
/// Contract: `next* completed?`; each subscription is independent; events arrive on the thread that produces them.
///
/// ```swift
/// let titles: Infallible<String> = movies.map(\.title).asInfallible(onErrorJustReturn: "")
/// titles.subscribe(onNext: { print($0) }).disposed(by: bag)
/// ```
public struct Infallible<Element>: InfallibleType {
    let source: Observable<Element>

    init(raw source: Observable<Element>) {
        self.source = source
    }

    /// The sequence as an `Observable` (which never fails).
    public func asObservable() -> Observable<Element> {
        source
    }

    /// Returns itself.
    public func asInfallible() -> Infallible<Element> {
        self
    }
}

@available(*, unavailable)
extension Infallible: Sendable {}

/// A type that can be turned into an `Infallible`.
public protocol InfallibleType: ObservableConvertibleType {
    /// The sequence as an `Infallible`.
    func asInfallible() -> Infallible<Element>
}

/// What an `Infallible` sends: an element or completion.
public enum InfallibleEvent<Element> {
    /// The next element.
    case next(Element)
    /// Completion.
    case completed
}

extension InfallibleType {
    /// An `Infallible` whose subscription runs `subscribe` with an observer for the new subscriber.
    ///
    /// ```swift
    /// Infallible<Int>.create { observer in
    ///     observer(.next(1))
    ///     observer(.completed)
    ///     return Disposables.create()
    /// }
    /// ```
    public static func create(subscribe: @escaping (@escaping (InfallibleEvent<Element>) -> Void) -> any Disposable)
        -> Infallible<Element>
    {
        Infallible(
            raw: Observable.create { observer in
                subscribe { event in
                    switch event {
                    case .next(let element): observer.onNext(element)
                    case .completed: observer.onCompleted()
                    }
                }
            })
    }

    /// Subscribes closures for elements and completion; `onDisposed` runs once, after completion or on disposal.
    ///
    /// ```swift
    /// titles.subscribe(onNext: { print($0) }).disposed(by: bag)
    /// ```
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> any Disposable {
        asInfallible().source.subscribe(onNext: onNext, onError: nil, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Like `subscribe(onNext:onCompleted:onDisposed:)`, passing `object` (held weakly) to each closure.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> any Disposable {
        asInfallible().source.subscribe(
            with: object, onNext: onNext, onError: nil, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes a closure that receives every event.
    public func subscribe(_ on: @escaping (Event<Element>) -> Void) -> any Disposable {
        asInfallible().source.subscribe(on)
    }

    /// An `Infallible` of one element, then completed.
    public static func just(_ element: Element) -> Infallible<Element> {
        Infallible(raw: .just(element))
    }

    /// An `Infallible` of the arguments, then completed.
    public static func of(_ elements: Element...) -> Infallible<Element> {
        Infallible(raw: .from(elements))
    }

    /// An `Infallible` of the elements of `sequence`, then completed.
    public static func from<Source: Sequence>(_ sequence: Source) -> Infallible<Element>
    where Source.Element == Element {
        Infallible(raw: .from(sequence))
    }

    /// An `Infallible` that completes at once.
    public static func empty() -> Infallible<Element> {
        Infallible(raw: .empty())
    }

    /// An `Infallible` that never sends anything.
    public static func never() -> Infallible<Element> {
        Infallible(raw: .never())
    }

    /// An `Infallible` made anew by `factory` for each subscriber.
    public static func deferred(_ factory: @escaping () -> Infallible<Element>) -> Infallible<Element> {
        Infallible(raw: Observable.deferred { factory().source })
    }

    /// Transforms each element.
    public func map<Result>(_ transform: @escaping (Element) -> Result) -> Infallible<Result> {
        Infallible<Result>(raw: asInfallible().source.map(transform))
    }

    /// Transforms each element, dropping `nil`s.
    public func compactMap<Result>(_ transform: @escaping (Element) -> Result?) -> Infallible<Result> {
        Infallible<Result>(raw: asInfallible().source.compactMap(transform))
    }

    /// Keeps the elements that satisfy `predicate`.
    public func filter(_ predicate: @escaping (Element) -> Bool) -> Infallible<Element> {
        Infallible(raw: asInfallible().source.filter(predicate))
    }

    /// Sends each intermediate result of folding the elements into `seed`.
    public func scan<Accumulate>(_ seed: Accumulate, accumulator: @escaping (Accumulate, Element) -> Accumulate)
        -> Infallible<Accumulate>
    {
        Infallible<Accumulate>(raw: asInfallible().source.scan(seed, accumulator: accumulator))
    }

    /// Sends `elements` first.
    public func startWith(_ elements: Element...) -> Infallible<Element> {
        Infallible(raw: Observable.from(elements).concat(asInfallible().source))
    }

    /// The first `count` elements.
    public func take(_ count: Int) -> Infallible<Element> {
        Infallible(raw: asInfallible().source.take(count))
    }

    /// All but the first `count` elements.
    public func skip(_ count: Int) -> Infallible<Element> {
        Infallible(raw: asInfallible().source.skip(count))
    }

    /// Merges the `Infallible`s `selector` makes of each element.
    public func flatMap<Result>(_ selector: @escaping (Element) -> Infallible<Result>) -> Infallible<Result> {
        Infallible<Result>(raw: asInfallible().source.flatMap { selector($0).source })
    }

    /// Follows only the `Infallible` made of the latest element.
    public func flatMapLatest<Result>(_ selector: @escaping (Element) -> Infallible<Result>) -> Infallible<Result> {
        Infallible<Result>(raw: asInfallible().source.flatMapLatest { selector($0).source })
    }

    /// Ignores elements while the `Infallible` made of an earlier one runs.
    public func flatMapFirst<Result>(_ selector: @escaping (Element) -> Infallible<Result>) -> Infallible<Result> {
        Infallible<Result>(raw: asInfallible().source.flatMapFirst { selector($0).source })
    }

    /// Shares one subscription among subscribers, replaying the last `replay` elements.
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Infallible<Element> {
        Infallible(raw: asInfallible().source.share(replay: replay, scope: scope))
    }

    /// Sends an element only after `dueTime` without another one.
    public func debounce(_ dueTime: RxTimeInterval, scheduler: any SchedulerType) -> Infallible<Element> {
        Infallible(raw: asInfallible().source.debounce(dueTime, scheduler: scheduler))
    }

    /// Sends at most one element per `dueTime`.
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true, scheduler: any SchedulerType)
        -> Infallible<Element>
    {
        Infallible(raw: asInfallible().source.throttle(dueTime, latest: latest, scheduler: scheduler))
    }

    /// Runs side effects at each event, subscription and disposal.
    public func `do`(
        onNext: ((Element) -> Void)? = nil,
        afterNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        afterCompleted: (() -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Infallible<Element> {
        Infallible(
            raw: asInfallible().source.do(
                onNext: onNext, afterNext: afterNext, onCompleted: onCompleted, afterCompleted: afterCompleted,
                onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose))
    }

    /// Merges the elements of `sources`.
    public static func merge(_ sources: Infallible<Element>...) -> Infallible<Element> {
        Infallible(raw: Observable.merge(sources.map(\.source)))
    }

    /// `resultSelector` of the latest elements of both, whenever either sends, once both have.
    public static func combineLatest<Element1, Element2>(
        _ source1: Infallible<Element1>, _ source2: Infallible<Element2>,
        resultSelector: @escaping (Element1, Element2) -> Element
    ) -> Infallible<Element> {
        Infallible(raw: Observable.combineLatest(source1.source, source2.source, resultSelector: resultSelector))
    }

    /// `resultSelector` of both sequences' elements by index.
    public static func zip<Element1, Element2>(
        _ source1: Infallible<Element1>, _ source2: Infallible<Element2>,
        resultSelector: @escaping (Element1, Element2) -> Element
    ) -> Infallible<Element> {
        Infallible(raw: Observable.zip(source1.source, source2.source, resultSelector: resultSelector))
    }

    /// `resultSelector` of each element and the latest of `second`.
    public func withLatestFrom<Second: InfallibleType, Result>(
        _ second: Second, resultSelector: @escaping (Element, Second.Element) -> Result
    ) -> Infallible<Result> {
        Infallible<Result>(
            raw: asInfallible().source.withLatestFrom(second.asInfallible().source, resultSelector: resultSelector))
    }
}

extension InfallibleType where Element: Equatable {
    /// Drops elements equal to the one before.
    public func distinctUntilChanged() -> Infallible<Element> {
        Infallible(raw: asInfallible().source.distinctUntilChanged())
    }
}

extension ObservableConvertibleType {
    /// An `Infallible` that sends `element` and completes when this sequence fails.
    ///
    /// ```swift
    /// api.count().asInfallible(onErrorJustReturn: 0)
    /// ```
    public func asInfallible(onErrorJustReturn element: Element) -> Infallible<Element> {
        Infallible(raw: asObservable().catchAndReturn(element))
    }

    /// An `Infallible` that continues with `fallback` when this sequence fails.
    public func asInfallible(onErrorFallbackTo fallback: Infallible<Element>) -> Infallible<Element> {
        Infallible(raw: asObservable().catch { _ in fallback.source })
    }

    /// An `Infallible` that continues with the one `recover` makes of the error when this sequence fails.
    public func asInfallible(onErrorRecover recover: @escaping (any Swift.Error) -> Infallible<Element>)
        -> Infallible<Element>
    {
        Infallible(raw: asObservable().catch { recover($0).source })
    }
}

extension BehaviorRelay {
    /// The relay as an `Infallible` (it cannot fail).
    public func asInfallible() -> Infallible<Element> {
        Infallible(raw: asObservable())
    }
}

extension PublishRelay {
    /// The relay as an `Infallible` (it cannot fail).
    public func asInfallible() -> Infallible<Element> {
        Infallible(raw: asObservable())
    }
}
