extension ObservableType {
    /// Maps each element to a sequence and sends only the latest one's elements, disposing the
    /// previous inner subscription; completes when this sequence and the latest inner one have
    /// completed.
    ///
    /// ```swift
    /// movieID.flatMapLatest { id in store.movie(id) }
    /// ```
    public func flatMapLatest<Source: ObservableConvertibleType>(
        _ selector: @escaping (Element) throws -> Source
    ) -> Observable<Source.Element> {
        let source = asObservable()
        return Observable.create { observer in
            let serializer = Serializer<FlatMapLatestState, Source.Element>(FlatMapLatestState(), observer: observer)
            let innerSubscription = SerialDisposable()
            let outer = source.subscribe { event in
                switch event {
                case .next(let element):
                    let inner: Observable<Source.Element>
                    do { inner = try selector(element).asObservable() } catch {
                        serializer.send(.error(error))
                        return
                    }
                    let id = serializer.update { state, _ -> Int in
                        state.latest += 1
                        state.hasLatest = true
                        return state.latest
                    }
                    let subscription = SingleAssignmentDisposable()
                    innerSubscription.disposable = subscription
                    subscription.setDisposable(
                        inner.subscribe { event in
                            serializer.update { state, outbox in
                                guard state.latest == id else { return }
                                switch event {
                                case .next, .error: outbox.send(event)
                                case .completed:
                                    state.hasLatest = false
                                    if state.isOuterStopped { outbox.send(.completed) }
                                }
                            }
                        })
                case .error:
                    serializer.send(event.map { _ in preconditionFailure("not a next event") })
                case .completed:
                    serializer.update { state, outbox in
                        state.isOuterStopped = true
                        if !state.hasLatest { outbox.send(.completed) }
                    }
                }
            }
            return Disposables.create(outer, innerSubscription)
        }
    }
}

private struct FlatMapLatestState {
    var latest = 0
    var hasLatest = false
    var isOuterStopped = false
}
