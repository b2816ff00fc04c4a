/// The trait of `Single`: one element, or an error.
public enum SingleTrait {}

/// A sequence of exactly one element or an error, as RxSwift's `Single` (a network call, a database read).
///
/// Contract: a subscriber receives `.success(element)` or `.failure(error)`, once; an `Observable` made from a
/// `Single` sends one `next` followed by `completed`, or an `error`.
///
/// ```swift
/// api.movie(id: 7)
///     .subscribe(onSuccess: { movie in print(movie.title) }, onFailure: { error in print(error) })
///     .disposed(by: bag)
/// ```
public typealias Single<Element> = PrimitiveSequence<SingleTrait, Element>

/// What a `Single` sends: its element, or its error.
public typealias SingleEvent<Element> = Result<Element, any Swift.Error>

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// The observer `Single.create` hands its closure.
    public typealias SingleObserver = (SingleEvent<Element>) -> Void

    /// A `Single` whose subscription runs `subscribe` with an observer for the new subscriber; only the first event
    /// the closure sends counts.
    ///
    /// ```swift
    /// Single<Int>.create { observer in
    ///     observer(.success(42))
    ///     return Disposables.create()
    /// }
    /// ```
    public static func create(subscribe: @escaping (@escaping SingleObserver) -> any Disposable) -> Single<Element> {
        let source = Observable<Element>.create { observer in
            subscribe { event in
                switch event {
                case .success(let element):
                    observer.onNext(element)
                    observer.onCompleted()
                case .failure(let error):
                    observer.onError(error)
                }
            }
        }
        return PrimitiveSequence(raw: source)
    }

    /// Subscribes `observer` to the one event.
    public func subscribe(_ observer: @escaping (SingleEvent<Element>) -> Void) -> any Disposable {
        var stopped = false
        return primitiveSequence.source.subscribe { event in
            guard !stopped else { return }
            switch event {
            case .next(let element):
                stopped = true
                observer(.success(element))
            case .error(let error):
                stopped = true
                observer(.failure(error))
            case .completed:
                stopped = true
                observer(.failure(RxError.noElements))
            }
        }
    }

    /// Subscribes closures for success and failure; `onDisposed` runs once, after either or on disposal.
    ///
    /// Contract: as `subscribe(onNext:onError:onCompleted:onDisposed:)`; a failure with no `onFailure` is reported.
    ///
    /// ```swift
    /// api.movie(id: 7).subscribe(onSuccess: { print($0) }).disposed(by: bag)
    /// ```
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil,
        onFailure: ((any Swift.Error) -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> any Disposable {
        primitiveSequence.source.subscribe(
            onNext: onSuccess, onError: onFailure.map { handler in { handler($0) } }, onCompleted: nil,
            onDisposed: onDisposed)
    }

    /// Like `subscribe(onSuccess:onFailure:onDisposed:)`, passing `object` (held weakly) to each closure; events after
    /// `object` is released are dropped.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onSuccess: ((Object, Element) -> Void)? = nil,
        onFailure: ((Object, any Swift.Error) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> any Disposable {
        primitiveSequence.source.subscribe(
            with: object, onNext: onSuccess, onError: onFailure, onCompleted: nil, onDisposed: onDisposed)
    }

    /// A `Single` of `element`.
    public static func just(_ element: Element) -> Single<Element> {
        PrimitiveSequence(raw: .just(element))
    }

    /// A `Single` of `element`, sent on `scheduler`.
    public static func just(_ element: Element, scheduler: any ImmediateSchedulerType) -> Single<Element> {
        PrimitiveSequence(raw: Observable.just(element).subscribe(on: scheduler))
    }

    /// A `Single` that fails with `error`.
    public static func error(_ error: any Swift.Error) -> Single<Element> {
        PrimitiveSequence(raw: .error(error))
    }

    /// A `Single` that never sends anything.
    public static func never() -> Single<Element> {
        PrimitiveSequence(raw: .never())
    }

    /// Transforms the element; a thrown error fails the `Single`.
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Single<Result> {
        PrimitiveSequence(raw: primitiveSequence.source.map(transform))
    }

    /// Transforms the element, completing empty where `transform` returns `nil`.
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Maybe<Result> {
        PrimitiveSequence(raw: primitiveSequence.source.compactMap(transform))
    }

    /// A `Maybe` of the element if it satisfies `predicate`, else empty.
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Maybe<Element> {
        PrimitiveSequence(raw: primitiveSequence.source.filter(predicate))
    }

    /// Continues with the `Single` `selector` makes of the element.
    ///
    /// ```swift
    /// session.user().flatMap { user in api.favourites(of: user) }
    /// ```
    public func flatMap<Result>(_ selector: @escaping (Element) throws -> Single<Result>) -> Single<Result> {
        PrimitiveSequence<SingleTrait, Result>(raw: primitiveSequence.source.flatMap { try selector($0).source })
    }

    /// Continues with the `Maybe` `selector` makes of the element.
    public func flatMapMaybe<Result>(_ selector: @escaping (Element) throws -> Maybe<Result>) -> Maybe<Result> {
        PrimitiveSequence<MaybeTrait, Result>(raw: primitiveSequence.source.flatMap { try selector($0).source })
    }

    /// Continues with the `Completable` `selector` makes of the element.
    public func flatMapCompletable(_ selector: @escaping (Element) throws -> Completable) -> Completable {
        Completable(raw: primitiveSequence.source.flatMap { try selector($0).source })
    }

    /// Sends `element` instead of failing.
    public func catchAndReturn(_ element: Element) -> Single<Element> {
        PrimitiveSequence(raw: primitiveSequence.source.catchAndReturn(element))
    }

    /// Runs side effects at each event, subscription and disposal; an error thrown by a callback fails the `Single`.
    public func `do`(
        onSuccess: ((Element) throws -> Void)? = nil,
        afterSuccess: ((Element) throws -> Void)? = nil,
        onError: ((any Swift.Error) throws -> Void)? = nil,
        afterError: ((any Swift.Error) throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Single<Element> {
        PrimitiveSequence(
            raw: primitiveSequence.source.do(
                onNext: onSuccess, afterNext: afterSuccess, onError: onError, afterError: afterError,
                onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose))
    }

    /// The `Single` as a `Maybe`.
    public func asMaybe() -> Maybe<Element> {
        PrimitiveSequence(raw: primitiveSequence.source)
    }

    /// The `Single` as a `Completable`, ignoring its element.
    public func asCompletable() -> Completable {
        primitiveSequence.source.asCompletable()
    }

    /// Sends `resultSelector` of the elements of both `Single`s once both have succeeded.
    public static func zip<Element1, Element2>(
        _ source1: Single<Element1>, _ source2: Single<Element2>,
        resultSelector: @escaping (Element1, Element2) throws -> Element
    ) -> Single<Element> {
        PrimitiveSequence(raw: Observable.zip(source1.source, source2.source, resultSelector: resultSelector))
    }

    /// Sends the elements of all the `Single`s as an array once all have succeeded (at once, empty, for none).
    public static func zip<Sources: Collection>(_ sources: Sources) -> Single<[Element]>
    where Sources.Element == Single<Element> {
        guard !sources.isEmpty else { return PrimitiveSequence<SingleTrait, [Element]>(raw: .just([])) }
        return PrimitiveSequence<SingleTrait, [Element]>(raw: Observable.zip(sources.map(\.source)))
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// The tuple of both `Single`s' elements once both have succeeded.
    public static func zip<Element1, Element2>(_ source1: Single<Element1>, _ source2: Single<Element2>)
        -> Single<(Element1, Element2)> where Element == (Element1, Element2)
    {
        zip(source1, source2) { ($0, $1) }
    }
}

extension ObservableType {
    /// The sequence as a `Single`: its one element; fails with `RxError.noElements` if it completes empty and
    /// `RxError.moreThanOneElement` at a second element.
    ///
    /// ```swift
    /// rows.asSingle()
    /// ```
    public func asSingle() -> Single<Element> {
        PrimitiveSequence(raw: single(requiringElement: true))
    }

    /// A `Single` of the first element, or `nil` if the sequence completes empty.
    public func first() -> Single<Element?> {
        let source = asObservable()
        return PrimitiveSequence(
            raw: Observable.create { observer in
                source.subscribe { event in
                    switch event {
                    case .next(let element):
                        observer.onNext(element)
                        observer.onCompleted()
                    case .error(let error):
                        observer.onError(error)
                    case .completed:
                        observer.onNext(nil)
                        observer.onCompleted()
                    }
                }
            })
    }
}
