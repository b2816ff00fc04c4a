extension ObservableType {
    /// Transforms each element and keeps the non-`nil` results.
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Observable<Result> {
        let source = asObservable()
        return Observable.create { observer in
            source.subscribe { event in
                switch event {
                case .next(let element):
                    do {
                        if let mapped = try transform(element) { observer.onNext(mapped) }
                    } catch {
                        observer.onError(error)
                    }
                case .error(let error): observer.onError(error)
                case .completed: observer.onCompleted()
                }
            }
        }
    }
}
