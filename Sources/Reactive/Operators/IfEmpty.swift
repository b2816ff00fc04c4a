extension ObservableType {
    /// Sends the sequence's elements, or `element` if it completes empty.
    ///
    /// ```swift
    /// results.ifEmpty(default: .placeholder)
    /// ```
    public func ifEmpty(default element: Element) -> Observable<Element> {
        ifEmpty(switchTo: .just(element))
    }

    /// Sends the sequence's elements, or continues with `other` if it completes empty.
    ///
    /// ```swift
    /// cache.movies().ifEmpty(switchTo: api.movies())
    /// ```
    public func ifEmpty(switchTo other: Observable<Element>) -> Observable<Element> {
        let source = asObservable()
        return Observable.create { observer in
            let current = SerialDisposable()
            var isEmpty = true
            // In the slot before subscribing: a source that completes while it is subscribed puts `other`'s
            // subscription there, which must not be replaced by the finished one.
            let first = SingleAssignmentDisposable()
            current.disposable = first
            first.setDisposable(
                source.subscribe { event in
                    switch event {
                    case .next:
                        isEmpty = false
                        observer.on(event)
                    case .error:
                        observer.on(event)
                    case .completed:
                        if isEmpty { current.disposable = other.subscribe(observer) } else { observer.onCompleted() }
                    }
                })
            return current
        }
    }
}
