extension SharedSequence {
    /// Sends the elements of every trait in `sources` as they arrive, as RxCocoa's
    /// `SharedSequence.merge`; completes when all have completed. The result keeps the trait.
    ///
    /// ```swift
    /// let status: Driver<String> = Driver.merge([loading.map { _ in "Loading" }, loaded.map { _ in "Done" }])
    /// status.drive(label.rx.text)
    /// ```
    public static func merge<Sources: Collection>(_ sources: Sources) -> SharedSequence<SharingStrategy, Element>
    where Sources.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.merge(sources.map(\.source)))
    }

    /// Sends the elements of every trait in `sources` as they arrive; completes when all have
    /// completed.
    ///
    /// ```swift
    /// let taps: Signal<Void> = Signal.merge([okTaps, cancelTaps])
    /// ```
    public static func merge(_ sources: [SharedSequence<SharingStrategy, Element>])
        -> SharedSequence<SharingStrategy, Element>
    {
        SharedSequence(Observable.merge(sources.map(\.source)))
    }
}
