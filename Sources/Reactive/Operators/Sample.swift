extension ObservableType {
    /// Sends the latest element of this sequence whenever `sampler` sends, if one arrived since the last sample
    /// (otherwise `defaultValue`, when given); completes at the first sample after this sequence completed, fails
    /// when either fails.
    ///
    /// ```swift
    /// positions.sample(Observable<Int>.interval(.seconds(1), scheduler: scheduler))
    /// ```
    public func sample<Sampler: ObservableType>(_ sampler: Sampler, defaultValue: Element? = nil)
        -> Observable<Element>
    {
        let source = asObservable()
        let sampler = sampler.asObservable()
        return Observable.create { observer in
            let serializer = Serializer<SampleState<Element>, Element>(SampleState(), observer: observer)
            let sourceSubscription = SingleAssignmentDisposable()
            sourceSubscription.setDisposable(
                source.subscribe { event in
                    serializer.update { state, outbox in
                        switch event {
                        case .next(let element): state.latest = element
                        case .error: outbox.send(event)
                        case .completed: state.isSourceDone = true
                        }
                    }
                    if case .completed = event { sourceSubscription.dispose() }
                })
            let samplerSubscription = sampler.subscribe { event in
                serializer.update { state, outbox in
                    switch event {
                    case .next, .completed:
                        // As RxSwift's: the sampler's completion samples once more; only a source that has
                        // completed ends the result.
                        if let latest = state.latest ?? defaultValue { outbox.onNext(latest) }
                        state.latest = nil
                        if state.isSourceDone { outbox.send(.completed) }
                    case .error(let error):
                        outbox.send(.error(error))
                    }
                }
            }
            return Disposables.create(sourceSubscription, samplerSubscription)
        }
    }
}

private struct SampleState<Element> {
    var latest: Element?
    var isSourceDone = false
}
