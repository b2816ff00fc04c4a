extension ObservableType {
    /// Keeps the elements for which `predicate` is true; a thrown error fails the sequence.
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        let source = asObservable()
        return Observable.create { observer in
            source.subscribe { event in
                switch event {
                case .next(let element):
                    do {
                        if try predicate(element) { observer.onNext(element) }
                    } catch {
                        observer.onError(error)
                    }
                case .error, .completed: observer.on(event)
                }
            }
        }
    }
}
