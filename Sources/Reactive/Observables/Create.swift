extension Observable {
    /// A sequence whose subscription runs `subscribe` with an observer for the new subscriber.
    ///
    /// The observer enforces the grammar (events after a stop event are dropped) and drops events
    /// after disposal; a stop event disposes the returned disposable.
    ///
    /// ```swift
    /// let numbers = Observable<Int>.create { observer in
    ///     observer.onNext(1)
    ///     observer.onCompleted()
    ///     return Disposables.create()
    /// }
    /// ```
    public static func create(_ subscribe: @escaping (AnyObserver<Element>) -> any Disposable) -> Observable<Element> {
        AnonymousObservable(subscribe)
    }
}

final class AnonymousObservable<Element>: Observable<Element> {
    private let handler: (AnyObserver<Element>) -> any Disposable

    init(_ handler: @escaping (AnyObserver<Element>) -> any Disposable) {
        self.handler = handler
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        let sink = AnonymousSink(observer)
        Trampoline.run { sink.setUpstream(handler(AnyObserver(sink))) }
        return sink
    }
}
