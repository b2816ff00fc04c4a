extension ObservableType {
    /// Maps an element to a sequence and sends its elements, ignoring the elements that arrive while that inner
    /// sequence is live (they are not mapped); completes when this sequence and the live inner one have completed,
    /// fails on the first error.
    ///
    /// ```swift
    /// refreshTaps.flatMapFirst { _ in api.reload() }
    /// ```
    public func flatMapFirst<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source)
        -> Observable<Source.Element>
    {
        let source = asObservable()
        return Observable.create { observer in
            let serializer = Serializer<FlatMapFirstState, Source.Element>(FlatMapFirstState(), observer: observer)
            let innerSubscription = SerialDisposable()
            let outer = source.subscribe { event in
                switch event {
                case .next(let element):
                    let subscribes = serializer.update { state, outbox -> Bool in
                        guard !outbox.isStopped, !state.isActive else { return false }
                        state.isActive = true
                        return true
                    }
                    guard subscribes else { return }
                    let inner: Observable<Source.Element>
                    do { inner = try selector(element).asObservable() } catch {
                        serializer.send(.error(error))
                        return
                    }
                    // In the slot before subscribing: an inner sequence that completes while it is subscribed lets the
                    // next element subscribe one, whose subscription must not be replaced by this one's.
                    let subscription = SingleAssignmentDisposable()
                    innerSubscription.disposable = subscription
                    subscription.setDisposable(
                        inner.subscribe { event in
                            switch event {
                            case .next, .error: serializer.send(event)
                            case .completed:
                                serializer.update { state, outbox in
                                    state.isActive = false
                                    if state.isOuterStopped { outbox.send(.completed) }
                                }
                            }
                        })
                case .error(let error):
                    serializer.send(.error(error))
                case .completed:
                    serializer.update { state, outbox in
                        state.isOuterStopped = true
                        if !state.isActive { outbox.send(.completed) }
                    }
                }
            }
            return Disposables.create(outer, innerSubscription)
        }
    }
}

private struct FlatMapFirstState {
    /// Whether an inner sequence is subscribed.
    var isActive = false
    var isOuterStopped = false
}
