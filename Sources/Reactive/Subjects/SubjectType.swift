/// A sequence that is also an observer: what you send it, its subscribers receive.
public protocol SubjectType: ObservableType {
    /// The observer side's type.
    associatedtype Observer: ObserverType

    /// The observer side.
    func asObserver() -> Observer
}
