extension ObservableType {
    /// Subscribes a closure that receives every event.
    public func subscribe(_ on: @escaping (Event<Element>) -> Void) -> any Disposable {
        subscribe(AnonymousObserver(on))
    }

    /// Subscribes closures for each kind of event.
    ///
    /// Contract: closures run on the thread that delivers the event; `onDisposed` runs once, after
    /// a stop event or on disposal. An error with no `onError` is reported with
    /// `assertionFailure` in debug builds, like RxSwift's unhandled-error hook.
    ///
    /// ```swift
    /// relay.subscribe(onNext: { print($0) }).disposed(by: bag)
    /// ```
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onError: ((any Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> any Disposable {
        let disposed: any Disposable = onDisposed.map { Disposables.create(with: $0) } ?? Disposables.create()
        let observer = AnonymousObserver<Element> { event in
            switch event {
            case .next(let element):
                onNext?(element)
            case .error(let error):
                if let onError { onError(error) } else { reportUnhandledError(error) }
                disposed.dispose()
            case .completed:
                onCompleted?()
                disposed.dispose()
            }
        }
        return Disposables.create(asObservable().subscribe(observer), disposed)
    }

    /// Subscribes closures that receive `object` (held weakly) with each event; events after
    /// `object` is released are dropped.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onError: ((Object, any Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> any Disposable {
        subscribe(
            onNext: { [weak object] element in
                guard let object else { return }
                onNext?(object, element)
            },
            onError: { [weak object] error in
                guard let object else { return }
                onError?(object, error)
            },
            onCompleted: { [weak object] in
                guard let object else { return }
                onCompleted?(object)
            },
            onDisposed: { [weak object] in
                guard let object else { return }
                onDisposed?(object)
            })
    }
}

/// An error nobody handles is a programmer error.
func reportUnhandledError(_ error: any Error, file: StaticString = #fileID, line: UInt = #line) {
    #if DEBUG
        assertionFailure("Unhandled error in a Reactive subscription: \(error)", file: file, line: line)
    #endif
}
