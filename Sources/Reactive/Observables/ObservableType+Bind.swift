extension ObservableType {
    /// Subscribes `onNext`; an error is a programmer error (`assertionFailure` in debug builds),
    /// as in RxCocoa.
    ///
    /// ```swift
    /// viewController.backButton.rx.tap.bind(onNext: driver.close)
    /// ```
    @inlinable  // See `subscribe(onNext:onError:onCompleted:onDisposed:)`.
    public func bind(onNext: @escaping (Element) -> Void) -> any Disposable {
        // No `onError` closure: the observer reports an error as a binding error itself.
        CallbackObserver<Element>(onNext: onNext, unhandledError: .binding).subscribe(to: asObservable())
    }

    /// Sends every element to each of `observers`.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> any Disposable
    where Observer.Element == Element {
        subscribe { event in
            for observer in observers { observer.on(event) }
        }
    }

    /// Sends every element, wrapped in an optional, to each of `observers`.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> any Disposable
    where Observer.Element == Element? {
        map { $0 as Element? }.subscribe { event in
            for observer in observers { observer.on(event) }
        }
    }

    /// Sends every element to each of `relays`; an error is a programmer error.
    public func bind(to relays: PublishRelay<Element>...) -> any Disposable {
        // One relay: the relay itself in the closure (see the `BehaviorRelay` form below).
        if relays.count == 1 {
            let relay = relays[0]
            return bind(onNext: { element in relay.accept(element) })
        }
        return bind(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Sends every element to each of `relays`; an error is a programmer error.
    public func bind(to relays: BehaviorRelay<Element>...) -> any Disposable {
        // One relay (a driver's state, on every screen): the relay itself in the closure. Walking the array looked up
        // the relay type's metadata for each element, unspecialised across modules.
        if relays.count == 1 {
            let relay = relays[0]
            return bind(onNext: { element in relay.accept(element) })
        }
        return bind(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Hands this sequence to `binder` and returns what it returns (RxCocoa's curried form).
    public func bind<Result>(to binder: (Self) -> Result) -> Result {
        binder(self)
    }
}

/// A binding must never fail: an error reaching one is a programmer error, reported (to the screen it runs on) in
/// every build, as RxSwift reports it and goes on; the binding ends.
func reportBindingError(_ error: any Error, file: StaticString = #fileID, line: UInt = #line) {
    ProgrammerErrors.report(
        ProgrammerError(
            mistake: "An error reached a binding (\(file):\(line)): \(error).",
            fix: "bind a sequence that cannot fail: handle the error before binding, with catchAndReturn(_:) or "
                + "asDriver(onErrorJustReturn:)."))
}
