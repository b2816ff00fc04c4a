extension ObservableType {
    /// Keeps the elements for which `predicate` is true; a thrown error fails the sequence.
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        FilterObservable(asObservable(), predicate: predicate)
    }
}

private final class FilterObservable<Element>: Observable<Element> {
    private let source: Observable<Element>
    private let predicate: (Element) throws -> Bool

    init(_ source: Observable<Element>, predicate: @escaping (Element) throws -> Bool) {
        self.source = source
        self.predicate = predicate
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        let sink = FilterSink(observer, predicate: predicate)
        Trampoline.run { sink.setUpstream(source.subscribe(sink)) }
        return sink
    }
}

private final class FilterSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    private let predicate: (Observer.Element) throws -> Bool

    init(_ observer: Observer, predicate: @escaping (Observer.Element) throws -> Bool) {
        self.predicate = predicate
        super.init(observer)
    }

    func onNext(_ element: Observer.Element) {
        let isKept: Bool
        do { isKept = try predicate(element) } catch {
            forwardStop(.error(error))
            return
        }
        if isKept { forward(element) }
    }

    func on(_ event: Event<Observer.Element>) {
        switch event {
        case .next(let element): onNext(element)
        case .error, .completed: forwardStop(event)
        }
    }
}
