extension ObservableType {
    /// Sends this sequence, then (after it completes) `next`; fails on either one's error.
    public func concat<Next: ObservableConvertibleType>(_ next: Next) -> Observable<Element>
    where Next.Element == Element {
        let first = asObservable()
        let second = next.asObservable()
        return Observable.create { observer in
            let current = SerialDisposable()
            current.disposable = first.subscribe { event in
                if case .completed = event {
                    current.disposable = second.subscribe(observer)
                } else {
                    observer.on(event)
                }
            }
            return current
        }
    }
}
