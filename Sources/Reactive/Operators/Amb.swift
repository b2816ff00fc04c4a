extension ObservableType {
    /// Mirrors whichever of this sequence and `right` sends its first event first (an element, completion or an
    /// error), and unsubscribes from the other.
    ///
    /// ```swift
    /// primary.amb(mirror)
    /// ```
    public func amb<Right: ObservableConvertibleType>(_ right: Right) -> Observable<Element>
    where Right.Element == Element {
        Observable.amb([asObservable(), right.asObservable()])
    }

    /// Mirrors whichever of `sequence` sends its first event first, and unsubscribes from the others; never sends
    /// anything for no sources.
    ///
    /// ```swift
    /// Observable.amb([mirrorA, mirrorB, mirrorC])
    /// ```
    public static func amb<Sources: Sequence>(_ sequence: Sources) -> Observable<Element>
    where Sources.Element == Observable<Element> {
        let sources = Array(sequence)
        return Observable.create { observer in
            // The index of the winner, once there is one.
            let serializer = Serializer<Int?, Element>(nil, observer: observer)
            let subscriptions = sources.map { _ in SingleAssignmentDisposable() }
            for (index, source) in sources.enumerated() {
                subscriptions[index].setDisposable(
                    source.subscribe { event in
                        let losers = serializer.update { winner, outbox -> [Int] in
                            if winner == nil {
                                winner = index
                                outbox.send(event)
                                return subscriptions.indices.filter { $0 != index }
                            }
                            if winner == index { outbox.send(event) }
                            return []
                        }
                        for loser in losers { subscriptions[loser].dispose() }
                    })
            }
            return Disposables.create(subscriptions)
        }
    }
}
