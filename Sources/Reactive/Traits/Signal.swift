/// Shares with `share(scope: .whileConnected)`: no replay.
public enum SignalSharingStrategy: SharingStrategyProtocol {
    /// `source.share(scope: .whileConnected)`.
    public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.share(scope: .whileConnected)
    }
}

/// A sequence for events a screen reacts to, with RxCocoa's contract: like `Driver`, but it does
/// not replay anything to a new subscriber.
///
/// ```swift
/// driver.toasts.emit(onNext: unowned(self, in: MovieDetailBinder.show))
/// ```
public typealias Signal<Element> = SharedSequence<SignalSharingStrategy, Element>

extension SharedSequence where SharingStrategy == SignalSharingStrategy {
    /// Subscribes closures on the calling screen; elements produced on any thread arrive on this
    /// screen's scheduler, never after the returned disposable is disposed there.
    ///
    /// Called off a `ScreenScheduler` it subscribes nothing and reports a ``ProgrammerError``, unless a test installed a
    /// mock sharing scheduler (`SharingScheduler.mock(scheduler:action:)`): then it delivers there.
    @inlinable  // See `subscribe(onNext:onError:onCompleted:onDisposed:)`.
    public func emit(
        onNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil,
        file: StaticString = #fileID, line: UInt = #line
    ) -> any Disposable {
        guard let scheduler = ScreenScheduler.current else {
            return subscribeOffScreen("emit(onNext:)", file: file, line: line, source: source) { source in
                source.subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
            }
        }
        // As `drive(onNext:)`: one object does the screen hop, the callbacks and the disposal.
        let observer = CallbackObserver<Element>(
            onNext: onNext, onError: nil, onCompleted: onCompleted, onDisposed: onDisposed, scheduler: scheduler)
        return observer.subscribe(to: source)
    }

    /// Like `emit(onNext:onCompleted:onDisposed:)`, passing `object` (held weakly) to each closure.
    public func emit<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil,
        file: StaticString = #fileID, line: UInt = #line
    ) -> any Disposable {
        guard mayDeliverHere("emit(with:onNext:)", file: file, line: line) else {
            return Disposables.create()
        }
        return asObservable().subscribe(
            with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Sends every element to `observers`, on the calling screen.
    public func emit<Observer: ObserverType>(to observers: Observer...) -> any Disposable
    where Observer.Element == Element {
        guard mayDeliverHere("emit(to:)", file: #fileID, line: #line) else {
            return Disposables.create()
        }
        return asObservable().subscribe { event in
            for observer in observers { observer.on(event) }
        }
    }

    /// Accepts every element into `relays`, on the calling screen.
    public func emit(to relays: PublishRelay<Element>...) -> any Disposable {
        guard mayDeliverHere("emit(to:)", file: #fileID, line: #line) else {
            return Disposables.create()
        }
        return asObservable().subscribe(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Accepts every element into `relays`, on the calling screen.
    public func emit(to relays: BehaviorRelay<Element>...) -> any Disposable {
        guard mayDeliverHere("emit(to:)", file: #fileID, line: #line) else {
            return Disposables.create()
        }
        return asObservable().subscribe(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }
}

extension ObservableConvertibleType {
    /// A `Signal` that sends `onErrorJustReturn` and completes when this sequence fails.
    public func asSignal(onErrorJustReturn: Element) -> Signal<Element> {
        Signal(asObservable().catchAndReturn(onErrorJustReturn))
    }

    /// A `Signal` that continues with `onErrorSignalWith` when this sequence fails.
    public func asSignal(onErrorSignalWith: Signal<Element>) -> Signal<Element> {
        Signal(asObservable().catch { _ in onErrorSignalWith.source })
    }

    /// A `Signal` that continues with the signal `onErrorRecover` returns when this sequence fails.
    public func asSignal(onErrorRecover: @escaping (any Error) -> Signal<Element>) -> Signal<Element> {
        Signal(asObservable().catch { error in onErrorRecover(error).source })
    }
}

extension PublishRelay {
    /// The relay as a `Signal` (it cannot fail).
    public func asSignal() -> Signal<Element> {
        Signal(asObservable())
    }
}
