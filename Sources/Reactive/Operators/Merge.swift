extension Observable {
    /// Sends the elements of every source as they arrive; completes when all have completed,
    /// fails on the first error.
    public static func merge(_ sources: Observable<Element>...) -> Observable<Element> {
        merge(sources)
    }

    /// Sends the elements of every source as they arrive; completes when all have completed,
    /// fails on the first error.
    public static func merge<Sources: Collection>(_ sources: Sources) -> Observable<Element>
    where Sources.Element == Observable<Element> {
        Observable<Observable<Element>>.from(Array(sources)).flatMap { (source: Observable<Element>) in source }
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// Merges the inner sequences of this sequence of sequences.
    public func merge() -> Observable<Element.Element> {
        flatMap { $0 }
    }
}
