extension ObservableType {
    /// Sends the one element as it arrives; fails with `RxError.moreThanOneElement` at a second element and with
    /// `RxError.noElements` if the sequence completes empty.
    ///
    /// ```swift
    /// results.single()
    /// ```
    public func single() -> Observable<Element> {
        single { _ in true }
    }

    /// Sends the one element that satisfies `predicate` as it arrives; fails with `RxError.moreThanOneElement` at a
    /// second one and with `RxError.noElements` if the sequence completes without one.
    ///
    /// ```swift
    /// movies.single { $0.id == id }
    /// ```
    public func single(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        let source = asObservable()
        return Observable.create { observer in
            var seen = false
            return source.subscribe { event in
                switch event {
                case .next(let element):
                    do {
                        guard try predicate(element) else { return }
                    } catch {
                        observer.onError(error)
                        return
                    }
                    guard !seen else {
                        observer.onError(RxError.moreThanOneElement)
                        return
                    }
                    seen = true
                    observer.onNext(element)
                case .error(let error):
                    observer.onError(error)
                case .completed:
                    if seen { observer.onCompleted() } else { observer.onError(RxError.noElements) }
                }
            }
        }
    }

    /// The one element, sent at completion (the shape of `asSingle()` and `asMaybe()`): fails with
    /// `RxError.moreThanOneElement` at a second element, and, when `requiringElement`, with `RxError.noElements` if
    /// the sequence completes empty.
    func single(requiringElement: Bool) -> Observable<Element> {
        let source = asObservable()
        return Observable.create { observer in
            var element: Element?
            return source.subscribe { event in
                switch event {
                case .next(let next):
                    guard element == nil else {
                        observer.onError(RxError.moreThanOneElement)
                        return
                    }
                    element = next
                case .error(let error):
                    observer.onError(error)
                case .completed:
                    if let element {
                        observer.onNext(element)
                        observer.onCompleted()
                    } else if requiringElement {
                        observer.onError(RxError.noElements)
                    } else {
                        observer.onCompleted()
                    }
                }
            }
        }
    }
}
