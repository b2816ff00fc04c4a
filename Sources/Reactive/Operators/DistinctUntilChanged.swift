extension ObservableType where Element: Equatable {
    /// Drops elements equal to the one before.
    ///
    /// ```swift
    /// relay.map(\.rating).distinctUntilChanged()
    /// ```
    public func distinctUntilChanged() -> Observable<Element> {
        distinctUntilChanged({ $0 }, comparer: ==)
    }
}

extension ObservableType {
    /// Drops elements whose key equals the previous element's key.
    public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) throws -> Key)
        -> Observable<Element>
    {
        distinctUntilChanged(keySelector, comparer: ==)
    }

    /// Drops elements that `comparer` says equal the one before.
    public func distinctUntilChanged(_ comparer: @escaping (Element, Element) throws -> Bool) -> Observable<Element> {
        distinctUntilChanged({ $0 }, comparer: comparer)
    }

    /// Drops elements whose value at `keyPath` equals the previous element's.
    public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>)
        -> Observable<Element>
    {
        distinctUntilChanged({ $0[keyPath: keyPath] }, comparer: ==)
    }

    /// Drops elements whose key `comparer` says equals the previous element's key.
    public func distinctUntilChanged<Key>(
        _ keySelector: @escaping (Element) throws -> Key, comparer: @escaping (Key, Key) throws -> Bool
    ) -> Observable<Element> {
        DistinctUntilChangedObservable(asObservable(), keySelector: keySelector, comparer: comparer)
    }
}

private final class DistinctUntilChangedObservable<Element, Key>: Observable<Element> {
    private let source: Observable<Element>
    private let keySelector: (Element) throws -> Key
    private let comparer: (Key, Key) throws -> Bool

    init(
        _ source: Observable<Element>, keySelector: @escaping (Element) throws -> Key,
        comparer: @escaping (Key, Key) throws -> Bool
    ) {
        self.source = source
        self.keySelector = keySelector
        self.comparer = comparer
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        let sink = DistinctUntilChangedSink(observer, keySelector: keySelector, comparer: comparer)
        Trampoline.run { sink.setUpstream(source.subscribe(sink)) }
        return sink
    }
}

private final class DistinctUntilChangedSink<Observer: ObserverType, Key>: Sink<Observer>, ObserverType {
    private let keySelector: (Observer.Element) throws -> Key
    private let comparer: (Key, Key) throws -> Bool
    // Touched only by `on`, which the grammar serialises.
    private var previous: Key?

    init(
        _ observer: Observer, keySelector: @escaping (Observer.Element) throws -> Key,
        comparer: @escaping (Key, Key) throws -> Bool
    ) {
        self.keySelector = keySelector
        self.comparer = comparer
        super.init(observer)
    }

    func onNext(_ element: Observer.Element) {
        do {
            let key = try keySelector(element)
            if let previous, try comparer(previous, key) { return }
            previous = key
        } catch {
            forwardStop(.error(error))
            return
        }
        forward(element)
    }

    func on(_ event: Event<Observer.Element>) {
        switch event {
        case .next(let element): onNext(element)
        case .error, .completed:
            forwardStop(event)
        }
    }
}
