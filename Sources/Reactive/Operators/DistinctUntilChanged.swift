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
        let source = asObservable()
        return Observable.create { observer in
            var previous: Key?
            return source.subscribe { event in
                switch event {
                case .next(let element):
                    do {
                        let key = try keySelector(element)
                        if let previous, try comparer(previous, key) { return }
                        previous = key
                    } catch {
                        observer.onError(error)
                        return
                    }
                    observer.onNext(element)
                case .error, .completed:
                    observer.on(event)
                }
            }
        }
    }
}
