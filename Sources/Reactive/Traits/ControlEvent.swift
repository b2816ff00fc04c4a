/// A type that can be turned into a `ControlEvent`.
public protocol ControlEventType: ObservableType {
    /// The sequence as a `ControlEvent`.
    func asControlEvent() -> ControlEvent<Element>
}

/// Events of a view (taps, lifecycle calls), with RxCocoa's contract: it never fails, it does not
/// replay anything to a new subscriber, and its events arrive on the screen scheduler of the
/// view that sends them.
///
/// ```swift
/// extension Reactive where Base: Button {
///     public var tap: ControlEvent<Void> { ControlEvent(events: base.taps) }
/// }
/// viewController.backButton.rx.tap.bind(onNext: driver.close)
/// ```
public struct ControlEvent<PropertyType>: ControlEventType {
    /// The type of the events.
    public typealias Element = PropertyType

    private let events: Observable<PropertyType>

    /// Wraps `events`, which must not fail and must send on the owning screen's scheduler.
    public init<Events: ObservableType>(events: Events) where Events.Element == Element {
        self.events = events.asObservable()
    }

    /// Subscribes `observer`.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        events.subscribe(observer)
    }

    /// The events as an `Observable`.
    public func asObservable() -> Observable<Element> {
        events
    }

    /// Returns itself.
    public func asControlEvent() -> ControlEvent<Element> {
        self
    }

    /// The events as a `Signal`.
    public func asSignal() -> Signal<Element> {
        Signal(events)
    }

    /// The events as a `Driver` (replaying the latest to later subscribers while connected).
    public func asDriver() -> Driver<Element> {
        Driver(events)
    }
}
