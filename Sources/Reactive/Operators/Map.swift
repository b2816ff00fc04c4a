extension ObservableType {
    /// Transforms each element; a thrown error fails the sequence.
    ///
    /// ```swift
    /// relay.map { $0.title }
    /// ```
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
        MapObservable(asObservable(), transform: transform)
    }
}

private final class MapObservable<Input, Element>: Observable<Element> {
    private let source: Observable<Input>
    private let transform: (Input) throws -> Element

    init(_ source: Observable<Input>, transform: @escaping (Input) throws -> Element) {
        self.source = source
        self.transform = transform
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        let sink = MapSink(observer, transform: transform)
        Trampoline.run { sink.setUpstream(source.subscribe(sink)) }
        return sink
    }
}

private final class MapSink<Input, Observer: ObserverType>: Sink<Observer>, ObserverType {
    private let transform: (Input) throws -> Observer.Element

    init(_ observer: Observer, transform: @escaping (Input) throws -> Observer.Element) {
        self.transform = transform
        super.init(observer)
    }

    func onNext(_ element: Input) {
        let mapped: Observer.Element
        do { mapped = try transform(element) } catch {
            fail(error)
            return
        }
        forward(mapped)
    }

    /// The failure path on its own: inline, the `Event` it makes would have its type's metadata looked up at the
    /// start of every `onNext` (unspecialised across modules), also for the elements that do not fail.
    @inline(never)
    private func fail(_ error: any Error) {
        forwardStop(.error(error))
    }

    func on(_ event: Event<Input>) {
        switch event {
        case .next(let element): onNext(element)
        case .error(let error): forwardStop(.error(error))
        case .completed: forwardStop(.completed)
        }
    }
}
