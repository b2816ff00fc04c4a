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

    /// Sends elements while `predicate` holds, then completes.
    public func take(while predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        let source = asObservable()
        return Observable.create { observer in
            source.subscribe { event in
                switch event {
                case .next(let element):
                    do {
                        if try predicate(element) { observer.on(event) } else { observer.onCompleted() }
                    } catch {
                        observer.onError(error)
                    }
                case .error, .completed:
                    observer.on(event)
                }
            }
        }
    }
}
