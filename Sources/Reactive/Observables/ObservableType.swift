/// A type that can be turned into an `Observable`.
public protocol ObservableConvertibleType {
    /// The type of the elements of the sequence.
    associatedtype Element

    /// The sequence as an `Observable`.
    func asObservable() -> Observable<Element>
}

/// A push-based sequence: `next* (error | completed)?`.
///
/// Contract: `subscribe` returns a disposable that stops delivery; events reach an observer one
/// at a time, on the thread that produces them unless an operator (`observe(on:)`, `Driver`) moves
/// them.
public protocol ObservableType: ObservableConvertibleType {
    /// Starts delivering events to `observer` until the returned disposable is disposed or the
    /// sequence stops.
    func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element
}

extension ObservableType {
    /// The sequence as an `Observable`.
    public func asObservable() -> Observable<Element> {
        Observable.create { observer in self.subscribe(observer) }
    }
}
