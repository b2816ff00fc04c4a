extension ObservableType {
    /// Maps each element to a sequence and sends those sequences one after another, in order: each is subscribed
    /// when the previous one has completed (the ones mapped meanwhile wait); completes when this sequence and every
    /// inner one have completed, fails on the first error.
    ///
    /// ```swift
    /// uploads.concatMap { file in api.upload(file) }
    /// ```
    public func concatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source)
        -> Observable<Source.Element>
    {
        let source = asObservable()
        return Observable.create { observer in
            let serializer = Serializer<ConcatMapState<Source.Element>, Source.Element>(
                ConcatMapState(), observer: observer)
            let innerSubscription = SerialDisposable()
            // Subscribes `inner`, and after it completes the next one waiting.
            func subscribeInner(_ inner: Observable<Source.Element>) {
                // In the slot before subscribing: an inner sequence that completes while it is subscribed subscribes
                // the next one, whose subscription must not be replaced by this one's.
                let subscription = SingleAssignmentDisposable()
                innerSubscription.disposable = subscription
                subscription.setDisposable(
                    inner.subscribe { event in
                        switch event {
                        case .next, .error: serializer.send(event)
                        case .completed:
                            let next = serializer.update { state, outbox -> Observable<Source.Element>? in
                                guard !outbox.isStopped else { return nil }
                                if !state.waiting.isEmpty { return state.waiting.removeFirst() }
                                state.isActive = false
                                if state.isOuterStopped { outbox.send(.completed) }
                                return nil
                            }
                            if let next { subscribeInner(next) }
                        }
                    })
            }
            let outer = source.subscribe { event in
                switch event {
                case .next(let element):
                    let inner: Observable<Source.Element>
                    do { inner = try selector(element).asObservable() } catch {
                        serializer.send(.error(error))
                        return
                    }
                    let subscribesNow = serializer.update { state, outbox -> Bool in
                        guard !outbox.isStopped else { return false }
                        guard !state.isActive else {
                            state.waiting.append(inner)
                            return false
                        }
                        state.isActive = true
                        return true
                    }
                    if subscribesNow { subscribeInner(inner) }
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

private struct ConcatMapState<Element> {
    /// The inner sequences waiting for the active one to complete.
    var waiting: [Observable<Element>] = []
    /// Whether an inner sequence is subscribed.
    var isActive = false
    var isOuterStopped = false
}
