extension ObservableType {
    /// Transforms each element; a thrown error fails the sequence.
    ///
    /// ```swift
    /// relay.map { $0.title }
    /// ```
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
        let source = asObservable()
        return Observable.create { observer in
            source.subscribe { event in
                switch event {
                case .next(let element):
                    let mapped: Result
                    do { mapped = try transform(element) } catch {
                        observer.onError(error)
                        return
                    }
                    observer.onNext(mapped)
                case .error(let error): observer.onError(error)
                case .completed: observer.onCompleted()
                }
            }
        }
    }
}
