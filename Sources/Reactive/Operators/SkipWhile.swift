extension ObservableType {
    /// Drops elements while `predicate` holds, then sends every element (the first that fails it included); a thrown
    /// error fails the sequence.
    ///
    /// ```swift
    /// readings.skip(while: { $0 == 0 })
    /// ```
    public func skip(while predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        let source = asObservable()
        return Observable.create { observer in
            var isSkipping = true
            return source.subscribe { event in
                if case .next(let element) = event, isSkipping {
                    do { isSkipping = try predicate(element) } catch {
                        observer.onError(error)
                        return
                    }
                    if isSkipping { return }
                }
                observer.on(event)
            }
        }
    }
}
