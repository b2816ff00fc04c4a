extension ObservableType {
    /// Runs side effects at each event, subscription and disposal, passing events through.
    /// An error thrown by a callback before a stop event fails the sequence; `after…` callbacks run after the event
    /// reached the observer.
    ///
    /// ```swift
    /// source.do(onNext: { log("next \($0)") })
    /// ```
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onError: ((any Error) throws -> Void)? = nil,
        afterError: ((any Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Observable<Element> {
        let source = asObservable()
        return Observable.create { observer in
            onSubscribe?()
            let subscription = source.subscribe { event in
                do {
                    switch event {
                    case .next(let element): try onNext?(element)
                    case .error(let error): try onError?(error)
                    case .completed: try onCompleted?()
                    }
                } catch {
                    observer.onError(error)
                    return
                }
                observer.on(event)
                do {
                    switch event {
                    case .next(let element): try afterNext?(element)
                    // After a stop event nothing more reaches the observer: what the callbacks throw is dropped.
                    case .error(let error): try afterError?(error)
                    case .completed: try afterCompleted?()
                    }
                } catch {
                    observer.onError(error)
                }
            }
            onSubscribed?()
            return Disposables.create {
                subscription.dispose()
                onDispose?()
            }
        }
    }
}
