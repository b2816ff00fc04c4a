import Primitives

/// A subject that sends only its last element, and only when it completes, as RxSwift's `AsyncSubject`: subscribers
/// receive that element followed by completion (a subscriber after completion receives them at once); an error
/// reaches every subscriber, without the element. Thread-safe.
///
/// ```swift
/// let result = AsyncSubject<Int>()
/// result.subscribe(onNext: { print($0) })
/// result.onNext(1)
/// result.onNext(2)
/// result.onCompleted()  // prints 2
/// ```
public final class AsyncSubject<Element>: ObservableType, ObserverType, SubjectType, Cancelable {
    private struct State {
        var observers: [Int: AnyObserver<Element>] = [:]
        var nextKey = 0
        var last: Element?
        var stop: Event<Element>?
        var isDisposed = false
    }

    private let state = Locked(State())

    /// Creates a subject with no element.
    public init() {}

    /// Whether anyone is subscribed.
    public var hasObservers: Bool {
        state.withLock { !$0.observers.isEmpty }
    }

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool {
        state.withLock { $0.isDisposed }
    }

    /// Keeps `element` as the last one, or, for a stop event, sends the outcome to every subscriber.
    public func on(_ event: Event<Element>) {
        let (observers, last) = state.withLock { state -> ([AnyObserver<Element>], Element?) in
            guard state.stop == nil, !state.isDisposed else { return ([], nil) }
            switch event {
            case .next(let element):
                state.last = element
                return ([], nil)
            case .error:
                state.last = nil
                fallthrough
            case .completed:
                state.stop = event
                let observers = state.observers.keys.sorted().compactMap { state.observers[$0] }
                state.observers = [:]
                return (observers, state.last)
            }
        }
        for observer in observers {
            if case .completed = event, let last { observer.onNext(last) }
            observer.on(event)
        }
    }

    /// Subscribes `observer`: it receives the outcome when the subject stops, or at once if it has.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        let (key, replay) = state.withLock { state -> (Int?, (Element?, Event<Element>)?) in
            if state.isDisposed { return (nil, (nil, .error(RxError.disposed(object: "AsyncSubject")))) }
            if let stop = state.stop { return (nil, (state.last, stop)) }
            let key = state.nextKey
            state.nextKey += 1
            state.observers[key] = AnyObserver(observer)
            return (key, nil)
        }
        if let (last, stop) = replay {
            if case .completed = stop, let last { observer.onNext(last) }
            observer.on(stop)
            return Disposables.create()
        }
        return Disposables.create { [weak self] in
            guard let self, let key else { return }
            _ = state.withLock { $0.observers.removeValue(forKey: key) }
        }
    }

    /// The subject itself.
    public func asObserver() -> AsyncSubject<Element> {
        self
    }

    /// The subject as an `Observable`.
    public func asObservable() -> Observable<Element> {
        Observable.create { observer in self.subscribe(observer) }
    }

    /// Drops every observer and the element; later subscribers receive `RxError.disposed`.
    public func dispose() {
        state.withLock { state in
            state.isDisposed = true
            state.observers = [:]
            state.last = nil
        }
    }
}
