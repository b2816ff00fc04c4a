extension ObservableType {
    /// Continues with the sequence `handler` returns when this one fails.
    ///
    /// ```swift
    /// store.movie(id).catch { _ in .just(.placeholder) }
    /// ```
    public func `catch`(_ handler: @escaping (any Error) throws -> Observable<Element>) -> Observable<Element> {
        let source = asObservable()
        return Observable.create { observer in
            let current = SerialDisposable()
            // The first subscription goes into the slot before it is made: a source that fails while it is
            // subscribed puts the handler's subscription there, which must not be replaced by the failed one.
            let first = SingleAssignmentDisposable()
            current.disposable = first
            first.setDisposable(
                source.subscribe { event in
                    guard case .error(let error) = event else {
                        observer.on(event)
                        return
                    }
                    do {
                        current.disposable = try handler(error).subscribe(observer)
                    } catch {
                        observer.onError(error)
                    }
                })
            return current
        }
    }

    /// Replaces an error with `element`, then completes.
    public func catchAndReturn(_ element: Element) -> Observable<Element> {
        `catch` { _ in .just(element) }
    }
}
