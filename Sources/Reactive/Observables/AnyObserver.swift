/// A type-erased observer: forwards every event to a closure or another observer.
///
/// ```swift
/// let observer = AnyObserver<Int> { event in print(event) }
/// observer.onNext(1)
/// ```
public struct AnyObserver<Element>: ObserverType {
    /// The closure that receives events.
    public typealias EventHandler = (Event<Element>) -> Void

    // The observer itself rather than its `on` method as a closure: an element then reaches the observer's own
    // `onNext` (no `Event` made), and wrapping a sink (a class) allocates nothing, where the closure allocated its
    // context.
    private let observer: any ObserverType<Element>

    /// Creates an observer that calls `eventHandler` with each event.
    public init(eventHandler: @escaping EventHandler) {
        observer = EventHandlerObserver(handler: eventHandler)
    }

    /// Creates an observer that forwards to `observer`.
    public init<Observer: ObserverType>(_ observer: Observer) where Observer.Element == Element {
        self.observer = observer
    }

    /// Returns `observer` itself (not wrapped a second time).
    public init(_ observer: AnyObserver<Element>) {
        self = observer
    }

    /// Forwards `event`.
    public func on(_ event: Event<Element>) {
        observer.on(event)
    }

    /// Forwards `element`.
    public func onNext(_ element: Element) {
        observer.onNext(element)
    }

    /// Returns itself.
    public func asObserver() -> AnyObserver<Element> {
        self
    }
}

/// The observer of `AnyObserver(eventHandler:)`.
private struct EventHandlerObserver<Element>: ObserverType {
    let handler: (Event<Element>) -> Void

    func on(_ event: Event<Element>) {
        handler(event)
    }
}

/// The observer behind `subscribe(_:)`: stops after the first stop event.
final class AnonymousObserver<Element>: ObserverType {
    private let handler: (Event<Element>) -> Void
    private var isStopped = false

    init(_ handler: @escaping (Event<Element>) -> Void) {
        self.handler = handler
        Resources.increment()
    }

    deinit {
        Resources.decrement()
    }

    func on(_ event: Event<Element>) {
        // Events are serialised by the grammar, so a plain flag suffices.
        guard !isStopped else { return }
        if event.isStopEvent { isStopped = true }
        handler(event)
    }
}
