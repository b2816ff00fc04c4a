extension ObservableType {
    /// Runs side effects at each event, subscription and disposal, passing events through.
    /// An error thrown by `onNext` fails the sequence.
    ///
    /// ```swift
    /// source.do(onNext: { log("next \($0)") })
    /// ```
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onError: ((any Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
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
                if case .next(let element) = event {
                    do { try afterNext?(element) } catch { observer.onError(error) }
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
