extension ObservableType {
    /// Folds the elements into `seed` and sends the result of `mapResult` when the sequence completes; a thrown error
    /// fails the result.
    ///
    /// ```swift
    /// prices.reduce(0, accumulator: +) { total in "\(total) €" }
    /// ```
    public func reduce<Accumulate, Result>(
        _ seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate,
        mapResult: @escaping (Accumulate) throws -> Result
    ) -> Observable<Result> {
        let source = asObservable()
        return Observable.create { observer in
            var accumulate = seed
            return source.subscribe { event in
                switch event {
                case .next(let element):
                    do { accumulate = try accumulator(accumulate, element) } catch { observer.onError(error) }
                case .error(let error):
                    observer.onError(error)
                case .completed:
                    do {
                        observer.onNext(try mapResult(accumulate))
                        observer.onCompleted()
                    } catch {
                        observer.onError(error)
                    }
                }
            }
        }
    }

    /// Folds the elements into `seed` and sends the result when the sequence completes.
    ///
    /// ```swift
    /// prices.reduce(0, accumulator: +)
    /// ```
    public func reduce<Accumulate>(
        _ seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate
    ) -> Observable<Accumulate> {
        reduce(seed, accumulator: accumulator) { $0 }
    }

    /// Folds the elements into `seed` in place and sends the result when the sequence completes.
    public func reduce<Accumulate>(
        into seed: Accumulate, _ accumulator: @escaping (inout Accumulate, Element) throws -> Void
    ) -> Observable<Accumulate> {
        reduce(
            seed,
            accumulator: { accumulate, element in
                var accumulate = accumulate
                try accumulator(&accumulate, element)
                return accumulate
            }
        ) { $0 }
    }
}
