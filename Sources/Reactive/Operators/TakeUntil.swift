extension ObservableType {
    /// Sends elements until `other` sends an element, then completes; fails if either fails. `other` completing
    /// changes nothing.
    ///
    /// ```swift
    /// ticks.take(until: screenClosed)
    /// ```
    public func take<Other: ObservableType>(until other: Other) -> Observable<Element> {
        let source = asObservable()
        let other = other.asObservable()
        return Observable.create { observer in
            let serializer = Serializer<Void, Element>((), observer: observer)
            let otherSubscription = SingleAssignmentDisposable()
            otherSubscription.setDisposable(
                other.subscribe { event in
                    switch event {
                    case .next: serializer.send(.completed)
                    case .error(let error): serializer.send(.error(error))
                    case .completed: otherSubscription.dispose()
                    }
                })
            guard !serializer.isStopped else { return otherSubscription }
            let subscription = source.subscribe { event in serializer.send(event) }
            return Disposables.create(otherSubscription, subscription)
        }
    }
}
