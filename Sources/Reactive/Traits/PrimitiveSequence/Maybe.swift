/// The trait of `Maybe`: one element, nothing, or an error.
public enum MaybeTrait {}

/// A sequence of at most one element, as RxSwift's `Maybe` (a cache look-up that may miss).
///
/// Contract: a subscriber receives `.success(element)`, `.completed` or `.error(error)`, once; an `Observable` made
/// from a `Maybe` sends at most one `next`, then `completed`, or an `error`.
///
/// ```swift
/// cache.movie(id: 7)
///     .subscribe(onSuccess: { show($0) }, onCompleted: { showEmpty() })
///     .disposed(by: bag)
/// ```
public typealias Maybe<Element> = PrimitiveSequence<MaybeTrait, Element>

/// What a `Maybe` sends.
public enum MaybeEvent<Element> {
    /// The one element.
    case success(Element)
    /// The failure.
    case error(any Swift.Error)
    /// Completion without an element.
    case completed
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// The observer `Maybe.create` hands its closure.
    public typealias MaybeObserver = (MaybeEvent<Element>) -> Void

    /// A `Maybe` whose subscription runs `subscribe` with an observer for the new subscriber; only the first event
    /// the closure sends counts.
    ///
    /// ```swift
    /// Maybe<Movie>.create { observer in
    ///     if let movie = cache[id] { observer(.success(movie)) } else { observer(.completed) }
    ///     return Disposables.create()
    /// }
    /// ```
    public static func create(subscribe: @escaping (@escaping MaybeObserver) -> any Disposable) -> Maybe<Element> {
        let source = Observable<Element>.create { observer in
            subscribe { event in
                switch event {
                case .success(let element):
                    observer.onNext(element)
                    observer.onCompleted()
                case .error(let error):
                    observer.onError(error)
                case .completed:
                    observer.onCompleted()
                }
            }
        }
        return PrimitiveSequence(raw: source)
    }

    /// Subscribes `observer` to the one event.
    public func subscribe(_ observer: @escaping (MaybeEvent<Element>) -> Void) -> any Disposable {
        var stopped = false
        return primitiveSequence.source.subscribe { event in
            guard !stopped else { return }
            stopped = true
            switch event {
            case .next(let element): observer(.success(element))
            case .error(let error): observer(.error(error))
            case .completed: observer(.completed)
            }
        }
    }

    /// Subscribes closures for each outcome; `onDisposed` runs once, after any of them or on disposal.
    ///
    /// ```swift
    /// cache.movie(id: 7).subscribe(onSuccess: { print($0) }, onCompleted: { print("missing") })
    /// ```
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil,
        onError: ((any Swift.Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> any Disposable {
        // A success completes the sequence too: `onCompleted` is for a `Maybe` that completed empty.
        var succeeded = false
        return primitiveSequence.source.subscribe(
            onNext: { element in
                succeeded = true
                onSuccess?(element)
            }, onError: onError, onCompleted: { if !succeeded { onCompleted?() } }, onDisposed: onDisposed)
    }

    /// Like `subscribe(onSuccess:onError:onCompleted:onDisposed:)`, passing `object` (held weakly) to each closure.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onSuccess: ((Object, Element) -> Void)? = nil,
        onError: ((Object, any Swift.Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> any Disposable {
        var succeeded = false
        return primitiveSequence.source.subscribe(
            with: object,
            onNext: { object, element in
                succeeded = true
                onSuccess?(object, element)
            }, onError: onError, onCompleted: { object in if !succeeded { onCompleted?(object) } },
            onDisposed: onDisposed)
    }

    /// A `Maybe` of `element`.
    public static func just(_ element: Element) -> Maybe<Element> {
        PrimitiveSequence(raw: .just(element))
    }

    /// A `Maybe` of `element`, sent on `scheduler`.
    public static func just(_ element: Element, scheduler: any ImmediateSchedulerType) -> Maybe<Element> {
        PrimitiveSequence(raw: Observable.just(element).subscribe(on: scheduler))
    }

    /// A `Maybe` that fails with `error`.
    public static func error(_ error: any Swift.Error) -> Maybe<Element> {
        PrimitiveSequence(raw: .error(error))
    }

    /// A `Maybe` that never sends anything.
    public static func never() -> Maybe<Element> {
        PrimitiveSequence(raw: .never())
    }

    /// A `Maybe` that completes without an element.
    public static func empty() -> Maybe<Element> {
        PrimitiveSequence(raw: .empty())
    }

    /// Transforms the element; a thrown error fails the `Maybe`.
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Maybe<Result> {
        PrimitiveSequence(raw: primitiveSequence.source.map(transform))
    }

    /// Transforms the element, completing empty where `transform` returns `nil`.
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Maybe<Result> {
        PrimitiveSequence(raw: primitiveSequence.source.compactMap(transform))
    }

    /// The element if it satisfies `predicate`, else empty.
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Maybe<Element> {
        PrimitiveSequence(raw: primitiveSequence.source.filter(predicate))
    }

    /// Continues with the `Maybe` `selector` makes of the element; empty stays empty.
    public func flatMap<Result>(_ selector: @escaping (Element) throws -> Maybe<Result>) -> Maybe<Result> {
        PrimitiveSequence<MaybeTrait, Result>(raw: primitiveSequence.source.flatMap { try selector($0).source })
    }

    /// The element, or `element` when the `Maybe` is empty.
    public func ifEmpty(default element: Element) -> Single<Element> {
        PrimitiveSequence(raw: primitiveSequence.source.ifEmpty(default: element))
    }

    /// The element, or the other `Maybe`'s when this one is empty.
    public func ifEmpty(switchTo other: Maybe<Element>) -> Maybe<Element> {
        PrimitiveSequence(raw: primitiveSequence.source.ifEmpty(switchTo: other.source))
    }

    /// The element, or the `Single`'s when this `Maybe` is empty.
    public func ifEmpty(switchTo other: Single<Element>) -> Single<Element> {
        PrimitiveSequence(raw: primitiveSequence.source.ifEmpty(switchTo: other.source))
    }

    /// Sends `element` instead of failing.
    public func catchAndReturn(_ element: Element) -> Maybe<Element> {
        PrimitiveSequence(raw: primitiveSequence.source.catchAndReturn(element))
    }

    /// Runs side effects at each event, subscription and disposal; an error thrown by a callback fails the `Maybe`.
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onError: ((any Swift.Error) throws -> Void)? = nil,
        afterError: ((any Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Maybe<Element> {
        PrimitiveSequence(
            raw: primitiveSequence.source.do(
                onNext: onNext, afterNext: afterNext, onError: onError, afterError: afterError,
                onCompleted: onCompleted, afterCompleted: afterCompleted, onSubscribe: onSubscribe,
                onSubscribed: onSubscribed, onDispose: onDispose))
    }

    /// The `Maybe` as a `Single`: fails with `RxError.noElements` when empty.
    public func asSingle() -> Single<Element> {
        primitiveSequence.source.asSingle()
    }

    /// The `Maybe` as a `Completable`, ignoring its element.
    public func asCompletable() -> Completable {
        primitiveSequence.source.asCompletable()
    }

    /// Sends `resultSelector` of the elements of both `Maybe`s once both have one; completes empty if either does.
    public static func zip<Element1, Element2>(
        _ source1: Maybe<Element1>, _ source2: Maybe<Element2>,
        resultSelector: @escaping (Element1, Element2) throws -> Element
    ) -> Maybe<Element> {
        PrimitiveSequence(raw: Observable.zip(source1.source, source2.source, resultSelector: resultSelector))
    }
}

extension ObservableType {
    /// The sequence as a `Maybe`: its element, or empty; fails with `RxError.moreThanOneElement` at a second element.
    ///
    /// ```swift
    /// matches.asMaybe()
    /// ```
    public func asMaybe() -> Maybe<Element> {
        PrimitiveSequence(raw: single(requiringElement: false))
    }
}
