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
        let observer = CallbackObserver<Element>(
            onNext: onNext, onError: onError, onCompleted: onCompleted, disposed: disposed)
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
/// The observer of `subscribe(onNext:onError:onCompleted:onDisposed:)`: the callbacks in one object, with no
/// closure around them, and one look at each event.
final class CallbackObserver<Element>: ObserverType {
    private let onNext: ((Element) -> Void)?
    private let onError: ((any Error) -> Void)?
    private let onCompleted: (() -> Void)?
    private let disposed: any Disposable
    private var isStopped = false

    init(
        onNext: ((Element) -> Void)?, onError: ((any Error) -> Void)?, onCompleted: (() -> Void)?,
        disposed: any Disposable
    ) {
        self.onNext = onNext
        self.onError = onError
        self.onCompleted = onCompleted
        self.disposed = disposed
        Resources.increment()
    }

    deinit {
        Resources.decrement()
    }

    func on(_ event: Event<Element>) {
        // Events are serialised by the grammar, so a plain flag suffices.
        guard !isStopped else { return }
        switch event {
        case .next(let element):
            onNext?(element)
        case .error(let error):
            isStopped = true
            if let onError { onError(error) } else { reportUnhandledError(error) }
            disposed.dispose()
        case .completed:
            isStopped = true
            onCompleted?()
            disposed.dispose()
        }
    }
}

func reportUnhandledError(_ error: any Error, file: StaticString = #fileID, line: UInt = #line) {
    #if DEBUG
        assertionFailure("Unhandled error in a Reactive subscription: \(error)", file: file, line: line)
    #endif
}
