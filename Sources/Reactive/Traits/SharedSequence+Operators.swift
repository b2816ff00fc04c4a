// The operators of `Driver` and `Signal`: each keeps the trait, so the result still never fails,
// still shares, and still delivers on the subscribing screen. Closures cannot throw, since a
// trait cannot fail.

extension SharedSequence {
    /// Transforms each element.
    public func map<Result>(_ transform: @escaping (Element) -> Result) -> SharedSequence<SharingStrategy, Result> {
        SharedSequence<SharingStrategy, Result>(source.map(transform))
    }

    /// Transforms each element and keeps the non-`nil` results.
    public func compactMap<Result>(_ transform: @escaping (Element) -> Result?)
        -> SharedSequence<SharingStrategy, Result>
    {
        SharedSequence<SharingStrategy, Result>(source.compactMap(transform))
    }

    /// Keeps the elements for which `predicate` is true.
    public func filter(_ predicate: @escaping (Element) -> Bool) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(source.filter(predicate))
    }

    /// Drops elements whose key equals the previous element's key.
    public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) -> Key)
        -> SharedSequence<SharingStrategy, Element>
    {
        SharedSequence(source.distinctUntilChanged(keySelector))
    }

    /// Drops elements that `comparer` says equal the one before.
    public func distinctUntilChanged(_ comparer: @escaping (Element, Element) -> Bool)
        -> SharedSequence<SharingStrategy, Element>
    {
        SharedSequence(source.distinctUntilChanged(comparer))
    }

    /// Sends each intermediate result of folding the elements into `seed`.
    public func scan<Accumulate>(_ seed: Accumulate, accumulator: @escaping (Accumulate, Element) -> Accumulate)
        -> SharedSequence<SharingStrategy, Accumulate>
    {
        SharedSequence<SharingStrategy, Accumulate>(source.scan(seed, accumulator: accumulator))
    }

    /// Sends `elements` first.
    public func startWith(_ elements: Element...) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.from(elements).concat(source))
    }

    /// Runs side effects at each event, subscription and disposal.
    public func `do`(
        onNext: ((Element) -> Void)? = nil,
        afterNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(
            source.do(
                onNext: onNext, afterNext: afterNext, onCompleted: onCompleted, onSubscribe: onSubscribe,
                onSubscribed: onSubscribed, onDispose: onDispose))
    }

    /// Maps each element to a trait and sends only the latest one's elements.
    public func flatMapLatest<Result>(_ selector: @escaping (Element) -> SharedSequence<SharingStrategy, Result>)
        -> SharedSequence<SharingStrategy, Result>
    {
        SharedSequence<SharingStrategy, Result>(source.flatMapLatest { selector($0).source })
    }

    /// Maps each element to a trait and merges them all.
    public func flatMap<Result>(_ selector: @escaping (Element) -> SharedSequence<SharingStrategy, Result>)
        -> SharedSequence<SharingStrategy, Result>
    {
        SharedSequence<SharingStrategy, Result>(source.flatMap { selector($0).source })
    }

    /// On each element, sends `resultSelector` of it and the latest element of `second`.
    public func withLatestFrom<Second: SharedSequenceConvertibleType, Result>(
        _ second: Second, resultSelector: @escaping (Element, Second.Element) -> Result
    ) -> SharedSequence<SharingStrategy, Result> {
        SharedSequence<SharingStrategy, Result>(
            source.withLatestFrom(second.asSharedSequence().source, resultSelector: resultSelector))
    }

    /// On each element, sends the latest element of `second`.
    public func withLatestFrom<Second: SharedSequenceConvertibleType>(_ second: Second)
        -> SharedSequence<SharingStrategy, Second.Element>
    {
        withLatestFrom(second) { $1 }
    }

    /// Sends an element only after `dueTime` without another one, timed on `scheduler`.
    public func debounce(_ dueTime: RxTimeInterval, scheduler: any SchedulerType)
        -> SharedSequence<SharingStrategy, Element>
    {
        SharedSequence(source.debounce(dueTime, scheduler: scheduler))
    }

    /// Sends at most one element per `dueTime`, timed on `scheduler`.
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true, scheduler: any SchedulerType)
        -> SharedSequence<SharingStrategy, Element>
    {
        SharedSequence(source.throttle(dueTime, latest: latest, scheduler: scheduler))
    }

    /// Sends the elements of every argument as they arrive.
    public static func merge(_ sources: SharedSequence<SharingStrategy, Element>...)
        -> SharedSequence<SharingStrategy, Element>
    {
        SharedSequence(Observable.merge(sources.map(\.source)))
    }

    /// Sends `resultSelector` of the latest elements of both traits whenever either sends.
    public static func combineLatest<Source1: SharedSequenceConvertibleType, Source2: SharedSequenceConvertibleType>(
        _ source1: Source1, _ source2: Source2,
        resultSelector: @escaping (Source1.Element, Source2.Element) -> Element
    ) -> SharedSequence<SharingStrategy, Element>
    where Source1.SharingStrategy == SharingStrategy, Source2.SharingStrategy == SharingStrategy {
        SharedSequence(
            Observable.combineLatest(
                source1.asSharedSequence().source, source2.asSharedSequence().source, resultSelector: resultSelector))
    }

    /// Sends `resultSelector` of the latest elements of the three traits whenever any sends.
    public static func combineLatest<
        Source1: SharedSequenceConvertibleType, Source2: SharedSequenceConvertibleType,
        Source3: SharedSequenceConvertibleType
    >(
        _ source1: Source1, _ source2: Source2, _ source3: Source3,
        resultSelector: @escaping (Source1.Element, Source2.Element, Source3.Element) -> Element
    ) -> SharedSequence<SharingStrategy, Element>
    where
        Source1.SharingStrategy == SharingStrategy, Source2.SharingStrategy == SharingStrategy,
        Source3.SharingStrategy == SharingStrategy
    {
        SharedSequence(
            Observable.combineLatest(
                source1.asSharedSequence().source, source2.asSharedSequence().source,
                source3.asSharedSequence().source, resultSelector: resultSelector))
    }
}

extension SharedSequence where Element: Equatable {
    /// Drops elements equal to the one before.
    public func distinctUntilChanged() -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(source.distinctUntilChanged())
    }
}
