/// Receives the events of a sequence.
///
/// Contract: events arrive one at a time (never concurrently) and obey `next* (error | completed)?`.
public protocol ObserverType {
    /// The type of the elements received.
    associatedtype Element

    /// Receives one event.
    func on(_ event: Event<Element>)
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
