extension ObservableType {
    /// Sends `resultSelector` of the sources' elements pairwise, by index: the first element of each, then the second
    /// of each, and so on; fails on the first error. As RxSwift 6's: completes when every source has completed (an
    /// element left unpaired, or a source that completed empty, does not end it earlier).
    ///
    /// ```swift
    /// Observable.zip(questions, answers) { question, answer in "\(question) \(answer)" }
    /// ```
    public static func zip<Source1: ObservableConvertibleType, Source2: ObservableConvertibleType>(
        _ source1: Source1, _ source2: Source2,
        resultSelector: @escaping (Source1.Element, Source2.Element) throws -> Element
    ) -> Observable<Element> {
        zipOf([source1.asObservable().map { $0 as Any }, source2.asObservable().map { $0 as Any }]) { values in
            try resultSelector(values[0] as! Source1.Element, values[1] as! Source2.Element)
        }
    }

    /// Sends the sources' elements pairwise, by index, as tuples.
    ///
    /// ```swift
    /// Observable<(Int, String)>.zip(numbers, letters)
    /// ```
    public static func zip<Source1: ObservableConvertibleType, Source2: ObservableConvertibleType>(
        _ source1: Source1, _ source2: Source2
    ) -> Observable<Element> where Element == (Source1.Element, Source2.Element) {
        zip(source1, source2) { ($0, $1) }
    }

    /// Sends `resultSelector` of the three sources' elements by index; completes as the two-source `zip` does.
    public static func zip<
        Source1: ObservableConvertibleType, Source2: ObservableConvertibleType, Source3: ObservableConvertibleType
    >(
        _ source1: Source1, _ source2: Source2, _ source3: Source3,
        resultSelector: @escaping (Source1.Element, Source2.Element, Source3.Element) throws -> Element
    ) -> Observable<Element> {
        zipOf(
            [
                source1.asObservable().map { $0 as Any }, source2.asObservable().map { $0 as Any },
                source3.asObservable().map { $0 as Any },
            ]
        ) { values in
            try resultSelector(
                values[0] as! Source1.Element, values[1] as! Source2.Element, values[2] as! Source3.Element)
        }
    }

    /// Sends the three sources' elements by index, as tuples.
    public static func zip<
        Source1: ObservableConvertibleType, Source2: ObservableConvertibleType, Source3: ObservableConvertibleType
    >(
        _ source1: Source1, _ source2: Source2, _ source3: Source3
    ) -> Observable<Element> where Element == (Source1.Element, Source2.Element, Source3.Element) {
        zip(source1, source2, source3) { ($0, $1, $2) }
    }

    /// Sends `resultSelector` of the elements of all the sources by index; completes at once for no sources.
    ///
    /// ```swift
    /// Observable.zip(pages) { pages in pages.joined() }
    /// ```
    public static func zip<Sources: Collection>(
        _ sources: Sources, resultSelector: @escaping ([Sources.Element.Element]) throws -> Element
    ) -> Observable<Element> where Sources.Element: ObservableConvertibleType {
        zipOf(sources.map { $0.asObservable().map { $0 as Any } }) { values in
            try resultSelector(values.map { $0 as! Sources.Element.Element })
        }
    }

    /// Sends the elements of all the sources by index, as arrays; completes at once for no sources.
    ///
    /// ```swift
    /// Observable.zip([first, second, third])
    /// ```
    public static func zip<Sources: Collection>(_ sources: Sources) -> Observable<[Element]>
    where Sources.Element: ObservableConvertibleType, Sources.Element.Element == Element {
        Observable<[Element]>.zip(sources) { $0 }
    }
}

/// Zips any number of type-erased sources (the typed overloads cast back).
func zipOf<Result>(
    _ sources: [Observable<Any>], resultSelector: @escaping ([Any]) throws -> Result
) -> Observable<Result> {
    Observable.create { observer in
        guard !sources.isEmpty else {
            observer.onCompleted()
            return Disposables.create()
        }
        let serializer = Serializer<ZipState, Result>(ZipState(count: sources.count), observer: observer)
        let subscriptions = sources.map { _ in SingleAssignmentDisposable() }
        for (index, source) in sources.enumerated() {
            subscriptions[index].setDisposable(
                source.subscribe { event in
                    serializer.update { state, outbox in
                        switch event {
                        case .next(let value):
                            state.queues[index].append(value)
                            // As RxSwift 6's ZipSink: an element that cannot be paired yet waits, even when every other
                            // source has completed; only the completion of all ends the result.
                            guard state.queues.allSatisfy({ !$0.isEmpty }) else { return }
                            let values = state.queues.indices.map { state.queues[$0].removeFirst() }
                            do { outbox.onNext(try resultSelector(values)) } catch {
                                outbox.send(.error(error))
                            }
                        case .error(let error):
                            outbox.send(.error(error))
                        case .completed:
                            state.isDone[index] = true
                            if state.isDone.allSatisfy({ $0 }) { outbox.send(.completed) }
                        }
                    }
                })
        }
        return Disposables.create(subscriptions)
    }
}

private struct ZipState {
    /// Each source's elements waiting to be combined.
    var queues: [[Any]]
    /// Whether each source has completed.
    var isDone: [Bool]

    init(count: Int) {
        queues = Array(repeating: [], count: count)
        isDone = Array(repeating: false, count: count)
    }
}
