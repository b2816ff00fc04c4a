extension ObservableType {
    /// Sends this sequence, then (after it completes) `next`; fails on either one's error.
    public func concat<Next: ObservableConvertibleType>(_ next: Next) -> Observable<Element>
    where Next.Element == Element {
        let first = asObservable()
        let second = next.asObservable()
        return Observable.create { observer in
            // Two slots: a first sequence that completes while it is subscribed (`just`) subscribes the second
            // before its own subscription is returned, and storing that one in the same slot disposed the second.
            let firstSubscription = SingleAssignmentDisposable()
            let secondSubscription = SingleAssignmentDisposable()
            firstSubscription.setDisposable(
                first.subscribe { event in
                    if case .completed = event {
                        secondSubscription.setDisposable(second.subscribe(observer))
                    } else {
                        observer.on(event)
                    }
                })
            return Disposables.create(firstSubscription, secondSubscription)
        }
    }
}
