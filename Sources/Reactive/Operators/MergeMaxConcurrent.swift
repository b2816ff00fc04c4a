extension ObservableType where Element: ObservableConvertibleType {
    /// Merges the inner sequences, subscribed to at most `maxConcurrent` at a time: the others wait, in order, for
    /// one to complete. Completes when the outer sequence and every inner one have; fails on the first error. A count
    /// below 1 is a reported mistake and counts as 1.
    ///
    /// ```swift
    /// downloads.merge(maxConcurrent: 2)
    /// ```
    public func merge(maxConcurrent: Int) -> Observable<Element.Element> {
        var limit = maxConcurrent
        if limit < 1 {
            ProgrammerErrors.report(
                ProgrammerError(
                    mistake: "merge(maxConcurrent:) was given \(maxConcurrent); it uses 1.",
                    fix: "pass a count of 1 or more."))
            limit = 1
        }
        let outer = asObservable()
        return Observable.create { [limit] observer in
            let serializer = Serializer<MergeLimitState<Element>, Element.Element>(
                MergeLimitState(), observer: observer)
            let group = CompositeDisposable()
            // Subscribes `inner` and, each time one completes, the next waiting one.
            func subscribe(_ inner: Element) {
                let subscription = SingleAssignmentDisposable()
                guard let key = group.insert(subscription) else { return }
                subscription.setDisposable(
                    inner.asObservable().subscribe { event in
                        guard case .completed = event else {
                            serializer.send(event.map { $0 })
                            return
                        }
                        group.remove(for: key)
                        let next = serializer.update { state, outbox -> Element? in
                            if !state.waiting.isEmpty { return state.waiting.removeFirst() }
                            state.active -= 1
                            if state.active == 0 && state.isOuterDone { outbox.send(.completed) }
                            return nil
                        }
                        if let next { subscribe(next) }
                    })
            }
            let outerSubscription = SingleAssignmentDisposable()
            _ = group.insert(outerSubscription)
            outerSubscription.setDisposable(
                outer.subscribe { event in
                    switch event {
                    case .next(let inner):
                        let startsNow = serializer.update { state, _ -> Bool in
                            guard state.active < limit else {
                                state.waiting.append(inner)
                                return false
                            }
                            state.active += 1
                            return true
                        }
                        if startsNow { subscribe(inner) }
                    case .error(let error):
                        serializer.send(.error(error))
                    case .completed:
                        serializer.update { state, outbox in
                            state.isOuterDone = true
                            if state.active == 0 { outbox.send(.completed) }
                        }
                        outerSubscription.dispose()
                    }
                })
            return group
        }
    }

    /// Concatenates the inner sequences: each is subscribed to after the one before completes.
    ///
    /// ```swift
    /// pages.concat()
    /// ```
    public func concat() -> Observable<Element.Element> {
        merge(maxConcurrent: 1)
    }
}

extension Observable {
    /// Merges `sources`, subscribed to at most `maxConcurrent` at a time.
    public static func merge<Sources: Collection>(_ sources: Sources, maxConcurrent: Int) -> Observable<Element>
    where Sources.Element == Observable<Element> {
        Observable<Observable<Element>>.from(Array(sources)).merge(maxConcurrent: maxConcurrent)
    }
}

private struct MergeLimitState<Inner> {
    /// How many inner sequences are subscribed.
    var active = 0
    /// The inner sequences waiting for a slot, in order.
    var waiting: [Inner] = []
    var isOuterDone = false
}
