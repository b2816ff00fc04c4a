extension ObservableType {
    /// Drops the first `count` elements.
    public func skip(_ count: Int) -> Observable<Element> {
        let source = asObservable()
        return Observable.create { observer in
            var remaining = count
            return source.subscribe { event in
                if case .next = event, remaining > 0 {
                    remaining -= 1
                    return
                }
                observer.on(event)
            }
        }
    }
}
