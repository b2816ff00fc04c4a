extension ObservableType {
    /// Sends `resultSelector` of the latest elements of both sources whenever either sends, once
    /// both have sent; completes when both have completed, or (as RxSwift's) at an element of one when the other
    /// completed without sending; fails on the first error.
    ///
    /// ```swift
    /// Observable.combineLatest(movie, favourites) { movie, favourites in favourites.contains(movie.id) }
    /// ```
    public static func combineLatest<Source1: ObservableConvertibleType, Source2: ObservableConvertibleType>(
        _ source1: Source1, _ source2: Source2,
        resultSelector: @escaping (Source1.Element, Source2.Element) throws -> Element
    ) -> Observable<Element> {
        combineLatestOf(
            [source1.asObservable().map { $0 as Any }, source2.asObservable().map { $0 as Any }]
        ) { values in
            try resultSelector(values[0] as! Source1.Element, values[1] as! Source2.Element)
        }
    }

    /// Sends the latest elements of both sources as a tuple whenever either sends.
    public static func combineLatest<Source1: ObservableConvertibleType, Source2: ObservableConvertibleType>(
        _ source1: Source1, _ source2: Source2
    ) -> Observable<Element> where Element == (Source1.Element, Source2.Element) {
        combineLatest(source1, source2) { ($0, $1) }
    }

    /// Sends `resultSelector` of the latest elements of the three sources whenever any sends, once
    /// all have sent.
    public static func combineLatest<
        Source1: ObservableConvertibleType, Source2: ObservableConvertibleType, Source3: ObservableConvertibleType
    >(
        _ source1: Source1, _ source2: Source2, _ source3: Source3,
        resultSelector: @escaping (Source1.Element, Source2.Element, Source3.Element) throws -> Element
    ) -> Observable<Element> {
        combineLatestOf(
            [
                source1.asObservable().map { $0 as Any }, source2.asObservable().map { $0 as Any },
                source3.asObservable().map { $0 as Any },
            ]
        ) { values in
            try resultSelector(
                values[0] as! Source1.Element, values[1] as! Source2.Element, values[2] as! Source3.Element)
        }
    }

    /// Sends the latest elements of the three sources as a tuple whenever any sends.
    public static func combineLatest<
        Source1: ObservableConvertibleType, Source2: ObservableConvertibleType, Source3: ObservableConvertibleType
    >(
        _ source1: Source1, _ source2: Source2, _ source3: Source3
    ) -> Observable<Element> where Element == (Source1.Element, Source2.Element, Source3.Element) {
        combineLatest(source1, source2, source3) { ($0, $1, $2) }
    }
}

/// Combines any number of type-erased sources (the typed overloads cast back).
func combineLatestOf<Result>(
    _ sources: [Observable<Any>], resultSelector: @escaping ([Any]) throws -> Result
) -> Observable<Result> {
    Observable.create { observer in
        let serializer = Serializer<CombineLatestState, Result>(
            CombineLatestState(
                latest: Array(repeating: nil, count: sources.count), missing: sources.count, active: sources.count),
            observer: observer)
        let subscriptions = sources.enumerated().map { index, source in
            source.subscribe { event in
                serializer.update { state, outbox in
                    switch event {
                    case .next(let value):
                        if state.latest[index] == nil { state.missing -= 1 }
                        state.latest[index] = value
                        guard state.missing == 0 else {
                            // As RxSwift's: when every other source has completed, one that has not sent can never
                            // be combined, so this element ends the result.
                            if state.active == 1 { outbox.send(.completed) }
                            return
                        }
                        do { outbox.onNext(try resultSelector(state.latest.map { $0! })) } catch {
                            outbox.send(.error(error))
                        }
                    case .error(let error):
                        outbox.send(.error(error))
                    case .completed:
                        // As RxSwift: complete once every source has, even when one completed without a value.
                        state.active -= 1
                        if state.active == 0 { outbox.send(.completed) }
                    }
                }
            }
        }
        return Disposables.create(subscriptions)
    }
}

private struct CombineLatestState {
    var latest: [Any?]
    var missing: Int
    var active: Int
}
