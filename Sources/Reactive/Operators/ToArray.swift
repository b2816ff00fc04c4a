extension ObservableType {
    /// A `Single` of every element, in order, sent when the sequence completes; fails with its error.
    ///
    /// ```swift
    /// pages.toArray().subscribe(onSuccess: { all in print(all.count) })
    /// ```
    public func toArray() -> Single<[Element]> {
        PrimitiveSequence(raw: reduce(into: [Element]()) { array, element in array.append(element) })
    }
}
