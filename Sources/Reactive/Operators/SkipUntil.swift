extension ObservableType {
    /// Drops elements until `other` sends an element, then sends the rest; fails if either fails. If the sequence
    /// completes before `other` has sent, the result sends nothing, not even completion (as RxSwift's).
    ///
    /// ```swift
    /// taps.skip(until: loaded)
    /// ```
    public func skip<Other: ObservableType>(until other: Other) -> Observable<Element> {
        let source = asObservable()
        let other = other.asObservable()
        return Observable.create { observer in
            let serializer = Serializer<Bool, Element>(false, observer: observer)
            let otherSubscription = SingleAssignmentDisposable()
            let subscription = source.subscribe { event in
                serializer.update { isOpen, outbox in
                    switch event {
                    case .next: if isOpen { outbox.send(event) }
                    case .error: outbox.send(event)
                    case .completed: if isOpen { outbox.send(event) }
                    }
                }
                if case .completed = event { otherSubscription.dispose() }
            }
            otherSubscription.setDisposable(
                other.subscribe { event in
                    switch event {
                    case .next:
                        serializer.update { isOpen, _ in isOpen = true }
                        otherSubscription.dispose()
                    case .error(let error): serializer.send(.error(error))
                    case .completed: otherSubscription.dispose()
                    }
                })
            return Disposables.create(subscription, otherSubscription)
        }
    }
}
