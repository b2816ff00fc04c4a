extension ObservableType {
    /// On each element of this sequence, sends `resultSelector` of it and the latest element of
    /// `second` (dropping elements that arrive before `second` has sent). Completes with this
    /// sequence; fails on either's error.
    ///
    /// ```swift
    /// saveTaps.withLatestFrom(form) { _, form in form }
    /// ```
    public func withLatestFrom<Source: ObservableConvertibleType, Result>(
        _ second: Source, resultSelector: @escaping (Element, Source.Element) throws -> Result
    ) -> Observable<Result> {
        let first = asObservable()
        let second = second.asObservable()
        return Observable.create { observer in
            let serializer = Serializer<Source.Element?, Result>(nil, observer: observer)
            let secondSubscription = second.subscribe { event in
                serializer.update { latest, outbox in
                    switch event {
                    case .next(let value): latest = value
                    case .error(let error): outbox.send(.error(error))
                    case .completed: break
                    }
                }
            }
            let firstSubscription = first.subscribe { event in
                serializer.update { latest, outbox in
                    switch event {
                    case .next(let element):
                        guard let latest else { return }
                        do { outbox.onNext(try resultSelector(element, latest)) } catch {
                            outbox.send(.error(error))
                        }
                    case .error(let error): outbox.send(.error(error))
                    case .completed: outbox.send(.completed)
                    }
                }
            }
            return Disposables.create(secondSubscription, firstSubscription)
        }
    }

    /// On each element of this sequence, sends the latest element of `second`.
    public func withLatestFrom<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Source.Element> {
        withLatestFrom(second) { $1 }
    }
}
