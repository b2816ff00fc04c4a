/// A type that can be turned into a `ControlProperty`.
public protocol ControlPropertyType: ObservableType, ObserverType {
    /// The property as a `ControlProperty`.
    func asControlProperty() -> ControlProperty<Element>
}

/// A view property that can be both observed and bound to (a text field's text), with RxCocoa's
/// contract: it never fails, it sends the current value first on subscription, and it delivers on
/// the owning screen's scheduler. Binding to it sets the property.
///
/// ```swift
/// let text: ControlProperty<String> = field.rx.text
/// driver.query.drive(text)
/// ```
public struct ControlProperty<PropertyType>: ControlPropertyType {
    /// The type of the values.
    public typealias Element = PropertyType

    private let values: Observable<PropertyType>
    private let valueSink: AnyObserver<PropertyType>

    /// Combines the sequence of `values` (current value first) with the observer that sets them.
    public init<Values: ObservableType, Sink: ObserverType>(values: Values, valueSink: Sink)
    where Element == Values.Element, Element == Sink.Element {
        self.values = values.asObservable()
        self.valueSink = valueSink.asObserver()
    }

    /// Subscribes `observer` to the values.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        values.subscribe(observer)
    }

    /// The values, without the current one: changes only.
    public var changed: ControlEvent<PropertyType> {
        ControlEvent(events: values.skip(1))
    }

    /// The values as an `Observable`.
    public func asObservable() -> Observable<Element> {
        values
    }

    /// Returns itself.
    public func asControlProperty() -> ControlProperty<Element> {
        self
    }

    /// The values as a `Driver`.
    public func asDriver() -> Driver<Element> {
        Driver(values)
    }

    /// Sets the property from `next`; an error is a programmer error.
    public func on(_ event: Event<Element>) {
        switch event {
        case .error(let error): reportBindingError(error)
        case .next, .completed: valueSink.on(event)
        }
    }
}

extension ControlPropertyType where Element == String? {
    /// The property with `nil` read as the empty string.
    public var orEmpty: ControlProperty<String> {
        let original = asControlProperty()
        let values = original.asObservable().map { $0 ?? "" }
        let valueSink = original.mapObserver { (value: String) -> String? in value }
        return ControlProperty(values: values, valueSink: valueSink)
    }
}
