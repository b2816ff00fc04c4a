/// Shares with `share(replay: 1, scope: .whileConnected)`.
public enum DriverSharingStrategy: SharingStrategyProtocol {
    /// `source.share(replay: 1, scope: .whileConnected)`.
    public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.share(replay: 1, scope: .whileConnected)
    }
}

/// A sequence for state a screen displays, with RxCocoa's contract:
/// - it never fails;
/// - it delivers on the scheduler of the screen that subscribed (`drive` must be called on one);
/// - it shares one source subscription and replays the latest element to each new subscriber
///   (`share(replay: 1, scope: .whileConnected)`), synchronously inside `drive`.
///
/// ```swift
/// driver.data.drive(onNext: unowned(self, in: MovieDetailBinder.configure))
/// ```
public typealias Driver<Element> = SharedSequence<DriverSharingStrategy, Element>

extension SharedSequence where SharingStrategy == DriverSharingStrategy {
    /// Subscribes closures on the calling screen: the current element is delivered before this
    /// returns, later ones (produced on any thread) on this screen's scheduler, never after the
    /// returned disposable is disposed there.
    ///
    /// Called off a `ScreenScheduler` it subscribes nothing and reports a ``ProgrammerError``, unless a test installed a
    /// mock sharing scheduler (`SharingScheduler.mock(scheduler:action:)`): then it delivers there.
    @inlinable  // See `subscribe(onNext:onError:onCompleted:onDisposed:)`.
    public func drive(
        onNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil,
        file: StaticString = #fileID, line: UInt = #line
    ) -> any Disposable {
        guard let scheduler = ScreenScheduler.current else {
            return subscribeOffScreen("drive(onNext:)", file: file, line: line, source: source) { source in
                source.subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
            }
        }
        // One object subscribed to the shared source does the screen hop, the callbacks and the disposal (rather
        // than `asObservable()`'s delivery sink below a closures' observer and their subscription).
        let observer = CallbackObserver<Element>(
            onNext: onNext, onError: nil, onCompleted: onCompleted, onDisposed: onDisposed, scheduler: scheduler)
        return observer.subscribe(to: source)
    }

    /// Like `drive(onNext:onCompleted:onDisposed:)`, passing `object` (held weakly) to each
    /// closure; elements after `object` is released are dropped.
    public func drive<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil,
        file: StaticString = #fileID, line: UInt = #line
    ) -> any Disposable {
        guard mayDeliverHere("drive(with:onNext:)", file: file, line: line) else {
            return Disposables.create()
        }
        return asObservable().subscribe(
            with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Sends every element to `observers`, on the calling screen (off a screen, nothing: a
    /// ``ProgrammerError`` is reported).
    public func drive<Observer: ObserverType>(_ observers: Observer...) -> any Disposable
    where Observer.Element == Element {
        guard mayDeliverHere("drive(_:)", file: #fileID, line: #line) else {
            return Disposables.create()
        }
        return asObservable().subscribe { event in
            for observer in observers { observer.on(event) }
        }
    }

    /// Sends every element, as an optional, to `observers`, on the calling screen.
    public func drive<Observer: ObserverType>(_ observers: Observer...) -> any Disposable
    where Observer.Element == Element? {
        guard mayDeliverHere("drive(_:)", file: #fileID, line: #line) else {
            return Disposables.create()
        }
        return asObservable().subscribe { event in
            for observer in observers { observer.on(event.map { $0 as Element? }) }
        }
    }

    /// Accepts every element into `relays`, on the calling screen.
    public func drive(_ relays: BehaviorRelay<Element>...) -> any Disposable {
        guard mayDeliverHere("drive(_:)", file: #fileID, line: #line) else {
            return Disposables.create()
        }
        return asObservable().subscribe(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Accepts every element into `relays`, on the calling screen.
    public func drive(_ relays: PublishRelay<Element>...) -> any Disposable {
        guard mayDeliverHere("drive(_:)", file: #fileID, line: #line) else {
            return Disposables.create()
        }
        return asObservable().subscribe(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }
}

extension ObservableConvertibleType {
    /// A `Driver` that sends `onErrorJustReturn` and completes when this sequence fails.
    public func asDriver(onErrorJustReturn: Element) -> Driver<Element> {
        Driver(asObservable().catchAndReturn(onErrorJustReturn))
    }

    /// A `Driver` that continues with `onErrorDriveWith` when this sequence fails.
    public func asDriver(onErrorDriveWith: Driver<Element>) -> Driver<Element> {
        Driver(asObservable().catch { _ in onErrorDriveWith.source })
    }

    /// A `Driver` that continues with the driver `onErrorRecover` returns when this sequence fails.
    public func asDriver(onErrorRecover: @escaping (any Error) -> Driver<Element>) -> Driver<Element> {
        Driver(asObservable().catch { error in onErrorRecover(error).source })
    }
}

extension BehaviorRelay {
    /// The relay as a `Driver` (it cannot fail).
    ///
    /// The relay already keeps the Driver's sharing contract (one current value, replayed to each new
    /// subscriber synchronously, every later element sent to all), so it is not wrapped in
    /// `share(replay: 1)`: that layer would add a subject, a connection and a delivery per element.
    public func asDriver() -> Driver<Element> {
        Driver(raw: asObservable())
    }
}
