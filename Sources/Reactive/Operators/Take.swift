extension ObservableType {
    /// Sends the first `count` elements, then completes (and disposes the source).
    public func take(_ count: Int) -> Observable<Element> {
        let count = ProgrammerErrors.checkedCount(count, "take(_:)")
        guard count > 0 else { return .empty() }
        let source = asObservable()
        return Observable.create { observer in
            var remaining = count
            return source.subscribe { event in
                switch event {
                case .next:
                    guard remaining > 0 else { return }
                    remaining -= 1
                    observer.on(event)
                    if remaining == 0 { observer.onCompleted() }
                case .error, .completed:
                    observer.on(event)
                }
            }
        }
    }

    /// Sends elements while `predicate` holds, then completes: with `.inclusive`, after sending the first element
    /// that fails it; with `.exclusive` (the default), without it. A thrown error fails the sequence.
    ///
    /// ```swift
    /// scores.take(while: { $0 < 100 }, behavior: .inclusive)
    /// ```
    public func take(while predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive)
        -> Observable<Element>
    {
        let source = asObservable()
        return Observable.create { observer in
            source.subscribe { event in
                switch event {
                case .next(let element):
                    do {
                        if try predicate(element) {
                            observer.onNext(element)
                        } else {
                            if behavior == .inclusive { observer.onNext(element) }
                            observer.onCompleted()
                        }
                    } catch {
                        observer.onError(error)
                    }
                case .error, .completed:
                    observer.on(event)
                }
            }
        }
    }

    /// Sends elements until one satisfies `predicate`, then completes: with `.inclusive` (the default, as RxSwift's),
    /// after sending that element; with `.exclusive`, without it.
    ///
    /// ```swift
    /// progress.take(until: { $0 >= 1 })
    /// ```
    public func take(until predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .inclusive)
        -> Observable<Element>
    {
        take(while: { try !predicate($0) }, behavior: behavior)
    }
}

/// Whether `take(while:behavior:)` and `take(until:behavior:)` send the element that ends them.
public enum TakeBehavior: Sendable {
    /// Sends it, then completes.
    case inclusive
    /// Completes without it.
    case exclusive
}
