import FoundationEssentials

extension ObservableType {
    /// Prints every event, subscription and disposal to standard output with `identifier` (by default the caller's
    /// file and line), passing the events through: for looking at a chain while developing, never for production
    /// logs.
    ///
    /// ```swift
    /// movies.debug("movies").subscribe().disposed(by: bag)
    /// ```
    public func debug(_ identifier: String? = nil, file: StaticString = #fileID, line: UInt = #line)
        -> Observable<Element>
    {
        let name = identifier ?? "\(file):\(line)"
        return self.do(
            onNext: { print("\(name) -> Event next(\($0))") },
            onError: { print("\(name) -> Event error(\($0))") },
            onCompleted: { print("\(name) -> Event completed") },
            onSubscribe: { print("\(name) -> subscribed") },
            onDispose: { print("\(name) -> isDisposed") })
    }
}

extension PrimitiveSequence {
    /// Prints every event, subscription and disposal; see `ObservableType.debug(_:file:line:)`.
    public func debug(_ identifier: String? = nil, file: StaticString = #fileID, line: UInt = #line)
        -> PrimitiveSequence<Trait, Element>
    {
        PrimitiveSequence(raw: source.debug(identifier, file: file, line: line))
    }
}
