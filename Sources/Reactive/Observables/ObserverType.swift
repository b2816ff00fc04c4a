/// Receives the events of a sequence.
///
/// Contract: events arrive one at a time (never concurrently) and obey `next* (error | completed)?`.
public protocol ObserverType<Element> {
    /// The type of the elements received.
    associatedtype Element

    /// Receives one event.
    func on(_ event: Event<Element>)

    /// Receives one element: the same as `on(.next(element))`, which is what it does unless the observer implements
    /// it.
    ///
    /// The operators' sinks implement it, so an element passes along a chain of them without an `Event` around it:
    /// in code that knows the element's type only at run time, as a chain's sinks do, each `Event` made is a look-up
    /// of its type's metadata and a copy of the element through its value witnesses.
    func onNext(_ element: Element)
}

extension ObserverType {
    /// Sends `.next(element)`.
    public func onNext(_ element: Element) {
        on(.next(element))
    }

    /// Sends `.completed`.
    public func onCompleted() {
        on(.completed)
    }

    /// Sends `.error(error)`.
    public func onError(_ error: any Error) {
        on(.error(error))
    }

    /// This observer, type-erased.
    public func asObserver() -> AnyObserver<Element> {
        AnyObserver(self)
    }

    /// An observer that transforms elements with `transform` before sending them here.
    public func mapObserver<Result>(_ transform: @escaping (Result) throws -> Element) -> AnyObserver<Result> {
        AnyObserver { event in self.on(event.map(transform)) }
    }
}
