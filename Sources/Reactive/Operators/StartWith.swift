extension ObservableType {
    /// Sends `elements` first, then this sequence.
    public func startWith(_ elements: Element...) -> Observable<Element> {
        let source = asObservable()
        return Observable.create { observer in
            for element in elements { observer.onNext(element) }
            return source.subscribe(observer)
        }
    }
}
