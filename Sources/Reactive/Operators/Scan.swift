extension ObservableType {
    /// Sends each intermediate result of folding the elements into `seed`.
    ///
    /// ```swift
    /// taps.scan(0) { count, _ in count + 1 }
    /// ```
    public func scan<Accumulate>(
        _ seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate
    ) -> Observable<Accumulate> {
        scan(into: seed) { accumulate, element in accumulate = try accumulator(accumulate, element) }
    }

    /// Sends each intermediate result of folding the elements into `seed` in place.
    public func scan<Accumulate>(
        into seed: Accumulate, accumulator: @escaping (inout Accumulate, Element) throws -> Void
    ) -> Observable<Accumulate> {
        let source = asObservable()
        return Observable.create { observer in
            var accumulate = seed
            return source.subscribe { event in
                switch event {
                case .next(let element):
                    do { try accumulator(&accumulate, element) } catch {
                        observer.onError(error)
                        return
                    }
                    observer.onNext(accumulate)
                case .error(let error): observer.onError(error)
                case .completed: observer.onCompleted()
                }
            }
        }
    }
}
