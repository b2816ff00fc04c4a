extension ObservableType {
    /// Sends every event of the sequence as an element, then completes: an error becomes a `.error` element, never a
    /// failure.
    ///
    /// ```swift
    /// api.movies().materialize().subscribe(onNext: { event in log(event) })
    /// ```
    public func materialize() -> Observable<Event<Element>> {
        let source = asObservable()
        return Observable.create { observer in
            source.subscribe { event in
                observer.onNext(event)
                if event.isStopEvent { observer.onCompleted() }
            }
        }
    }
}

/// A type that holds an `Event`: what `dematerialize()` turns back into events.
public protocol EventConvertible<Element> {
    /// The type of the event's element.
    associatedtype Element

    /// The event.
    var event: Event<Element> { get }
}

extension Event: EventConvertible {
    /// Itself.
    public var event: Event<Element> {
        self
    }
}

extension ObservableType where Element: EventConvertible {
    /// Turns elements that are events back into the events they hold: the inverse of `materialize()`.
    ///
    /// ```swift
    /// recorded.dematerialize()
    /// ```
    public func dematerialize() -> Observable<Element.Element> {
        let source = asObservable()
        return Observable.create { observer in
            source.subscribe { event in
                switch event {
                case .next(let element): observer.on(element.event)
                case .error(let error): observer.onError(error)
                case .completed: observer.onCompleted()
                }
            }
        }
    }
}
