/// The trait of `Completable`: completion, or an error; never an element.
public enum CompletableTrait {}

/// A sequence that only completes or fails, as RxSwift's `Completable` (a save, a delete).
///
/// Contract: a subscriber receives `.completed` or `.error(error)`, once; its element type is `Never`.
///
/// ```swift
/// store.save(movie)
///     .subscribe(onCompleted: { print("saved") }, onError: { print($0) })
///     .disposed(by: bag)
/// ```
public typealias Completable = PrimitiveSequence<CompletableTrait, Swift.Never>

/// What a `Completable` sends.
public enum CompletableEvent {
    /// The failure.
    case error(any Swift.Error)
    /// Completion.
    case completed
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
    /// The observer `Completable.create` hands its closure.
    public typealias CompletableObserver = (CompletableEvent) -> Void

    /// A `Completable` whose subscription runs `subscribe` with an observer for the new subscriber; only the first
    /// event the closure sends counts.
    ///
    /// ```swift
    /// Completable.create { observer in
    ///     try? data.write(to: url)
    ///     observer(.completed)
    ///     return Disposables.create()
    /// }
    /// ```
    public static func create(subscribe: @escaping (@escaping CompletableObserver) -> any Disposable) -> Completable {
        let source = Observable<Swift.Never>.create { observer in
            subscribe { event in
                switch event {
                case .error(let error): observer.onError(error)
                case .completed: observer.onCompleted()
                }
            }
        }
        return Completable(raw: source)
    }

    /// Subscribes `observer` to the one event.
    public func subscribe(_ observer: @escaping (CompletableEvent) -> Void) -> any Disposable {
        var stopped = false
        return primitiveSequence.source.subscribe { event in
            guard !stopped else { return }
            switch event {
            case .next: return
            case .error(let error):
                stopped = true
                observer(.error(error))
            case .completed:
                stopped = true
                observer(.completed)
            }
        }
    }

    /// Subscribes closures for completion and failure; `onDisposed` runs once, after either or on disposal.
    ///
    /// ```swift
    /// store.save(movie).subscribe(onCompleted: { print("saved") }).disposed(by: bag)
    /// ```
    public func subscribe(
        onCompleted: (() -> Void)? = nil,
        onError: ((any Swift.Error) -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> any Disposable {
        primitiveSequence.source.subscribe(
            onNext: nil, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Like `subscribe(onCompleted:onError:onDisposed:)`, passing `object` (held weakly) to each closure.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onCompleted: ((Object) -> Void)? = nil,
        onError: ((Object, any Swift.Error) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> any Disposable {
        primitiveSequence.source.subscribe(
            with: object, onNext: nil, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// A `Completable` that completes at once.
    public static func empty() -> Completable {
        Completable(raw: .empty())
    }

    /// A `Completable` that fails with `error`.
    public static func error(_ error: any Swift.Error) -> Completable {
        Completable(raw: .error(error))
    }

    /// A `Completable` that never sends anything.
    public static func never() -> Completable {
        Completable(raw: .never())
    }

    /// Runs side effects at each event, subscription and disposal; an error thrown by a callback fails the
    /// `Completable`.
    public func `do`(
        onError: ((any Swift.Error) throws -> Void)? = nil,
        afterError: ((any Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Completable {
        Completable(
            raw: primitiveSequence.source.do(
                onError: onError, afterError: afterError, onCompleted: onCompleted, afterCompleted: afterCompleted,
                onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose))
    }

    /// Completes once every one of `sources` has completed; fails on the first error.
    public static func zip(_ sources: Completable...) -> Completable {
        zip(sources)
    }

    /// Completes once every one of `sources` has completed; fails on the first error.
    public static func zip<Sources: Collection>(_ sources: Sources) -> Completable
    where Sources.Element == Completable {
        Completable(raw: Observable.merge(sources.map(\.source)))
    }

    /// Runs `sources` one after the other; completes after the last.
    public static func concat<Sources: Sequence>(_ sources: Sources) -> Completable
    where Sources.Element == Completable {
        Completable(raw: Observable.concat(sources.map(\.source)))
    }

    /// Runs `sources` one after the other; completes after the last.
    public static func concat(_ sources: Completable...) -> Completable {
        concat(sources)
    }

    /// Runs `sources` at once; completes when all have, fails on the first error.
    public static func merge(_ sources: Completable...) -> Completable {
        zip(sources)
    }

    /// Continues with `second` after this one completes.
    ///
    /// ```swift
    /// store.save(movie).andThen(store.reload())
    /// ```
    public func andThen(_ second: Completable) -> Completable {
        Completable(raw: primitiveSequence.source.concat(second.source))
    }

    /// Continues with `second` after this one completes.
    public func andThen<Result>(_ second: Single<Result>) -> Single<Result> {
        Single<Result>(raw: primitiveSequence.source.elementsDropped(as: Result.self).concat(second.source))
    }

    /// Continues with `second` after this one completes.
    public func andThen<Result>(_ second: Maybe<Result>) -> Maybe<Result> {
        Maybe<Result>(raw: primitiveSequence.source.elementsDropped(as: Result.self).concat(second.source))
    }

    /// Continues with `second` after this one completes.
    public func andThen<Result>(_ second: Observable<Result>) -> Observable<Result> {
        primitiveSequence.source.elementsDropped(as: Result.self).concat(second)
    }

    /// The `Completable` as a `Maybe` that completes empty.
    public func asMaybe<Result>() -> Maybe<Result> {
        Maybe<Result>(raw: primitiveSequence.source.elementsDropped(as: Result.self))
    }

    /// Returns itself.
    public func asCompletable() -> Completable {
        primitiveSequence
    }
}

extension ObservableType {
    /// The sequence as a `Completable`: ignores the elements, keeps completion and error.
    ///
    /// ```swift
    /// uploads.asCompletable()
    /// ```
    public func asCompletable() -> Completable {
        Completable(raw: ignoreElements())
    }

    /// Ignores the elements; keeps completion and error.
    public func ignoreElements() -> Observable<Swift.Never> {
        elementsDropped(as: Swift.Never.self)
    }

    /// Completion and error, as a sequence of any element type (a `Completable` followed by another trait).
    func elementsDropped<Result>(as type: Result.Type) -> Observable<Result> {
        let source = asObservable()
        return Observable.create { observer in
            source.subscribe { event in
                switch event {
                case .next: break
                case .error(let error): observer.onError(error)
                case .completed: observer.onCompleted()
                }
            }
        }
    }
}
