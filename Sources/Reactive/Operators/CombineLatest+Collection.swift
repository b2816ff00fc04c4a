extension ObservableType {
    /// Sends `resultSelector` of the latest elements of all the sources whenever any sends, once all have sent;
    /// completes when all have completed, or when a source completed without sending and every other has completed
    /// but one, at that one's next element; fails on the first error. With no sources, sends the result of none and
    /// completes at once.
    ///
    /// ```swift
    /// Observable.combineLatest(filters.map(\.isOn)) { flags in flags.filter { $0 }.count }
    /// ```
    public static func combineLatest<Sources: Collection>(
        _ sources: Sources, resultSelector: @escaping ([Sources.Element.Element]) throws -> Element
    ) -> Observable<Element> where Sources.Element: ObservableConvertibleType {
        let sources = sources.map { $0.asObservable() }
        return Observable.create { observer in
            guard !sources.isEmpty else {
                do { observer.onNext(try resultSelector([])) } catch {
                    observer.onError(error)
                    return Disposables.create()
                }
                observer.onCompleted()
                return Disposables.create()
            }
            let serializer = Serializer<CombineLatestCollectionState<Sources.Element.Element>, Element>(
                CombineLatestCollectionState(count: sources.count), observer: observer)
            let subscriptions = sources.map { _ in SingleAssignmentDisposable() }
            for (index, source) in sources.enumerated() {
                subscriptions[index].setDisposable(
                    source.subscribe { event in
                        serializer.update { state, outbox in
                            switch event {
                            case .next(let value):
                                if state.latest[index] == nil { state.missing -= 1 }
                                state.latest[index] = value
                                guard state.missing == 0 else {
                                    // The ones missing have completed without a value: nothing will be combined.
                                    let othersDone = state.done - (state.isDone[index] ? 1 : 0)
                                    if othersDone == sources.count - 1 { outbox.send(.completed) }
                                    return
                                }
                                do { outbox.onNext(try resultSelector(state.latest.map { $0! })) } catch {
                                    outbox.send(.error(error))
                                }
                            case .error(let error):
                                outbox.send(.error(error))
                            case .completed:
                                guard !state.isDone[index] else { return }
                                state.isDone[index] = true
                                state.done += 1
                                if state.done == sources.count { outbox.send(.completed) }
                            }
                        }
                    })
            }
            return Disposables.create(subscriptions)
        }
    }

    /// Sends the latest elements of all the sources, as an array, whenever any sends, once all have sent.
    ///
    /// ```swift
    /// Observable.combineLatest([width, height])
    /// ```
    public static func combineLatest<Sources: Collection>(_ sources: Sources) -> Observable<[Element]>
    where Sources.Element: ObservableConvertibleType, Sources.Element.Element == Element {
        Observable<[Element]>.combineLatest(sources) { $0 }
    }
}

private struct CombineLatestCollectionState<Element> {
    var latest: [Element?]
    /// How many sources have not sent yet.
    var missing: Int
    var isDone: [Bool]
    /// How many sources have completed.
    var done = 0

    init(count: Int) {
        latest = Array(repeating: nil, count: count)
        missing = count
        isDone = Array(repeating: false, count: count)
    }
}
