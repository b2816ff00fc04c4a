import Primitives

extension Observable {
    /// Sends the sources one after another: each is subscribed when the previous one has completed; completes after
    /// the last (at once for none), fails on the first error.
    ///
    /// ```swift
    /// Observable.concat(cached, fresh)
    /// ```
    public static func concat(_ sources: Observable<Element>...) -> Observable<Element> {
        concat(sources)
    }

    /// Sends the sources of `sources` one after another, taking each from the sequence when the previous one has
    /// completed; completes after the last (at once for none), fails on the first error.
    ///
    /// ```swift
    /// Observable.concat(pages.map { api.page($0) })
    /// ```
    public static func concat<Sources: Sequence>(_ sources: Sources) -> Observable<Element>
    where Sources.Element == Observable<Element> {
        Observable.create { observer in
            let current = SerialDisposable()
            let state = Locked(ConcatSequenceState(iterator: sources.makeIterator()))
            // Subscribes the next source; a source that completes while it is being subscribed (synchronously)
            // leaves the next one to the loop below rather than nesting it, so many such sources do not deepen the
            // stack.
            func subscribeNext() {
                let runsLoop = state.withLock { state -> Bool in
                    state.isPending = true
                    guard !state.isSubscribing else { return false }
                    state.isSubscribing = true
                    return true
                }
                guard runsLoop else { return }
                while true {
                    let (next, isOver) = state.withLock { state -> (Observable<Element>?, Bool) in
                        guard state.isPending, !current.isDisposed else {
                            state.isSubscribing = false
                            return (nil, false)
                        }
                        state.isPending = false
                        guard let next = state.iterator.next() else {
                            state.isSubscribing = false
                            return (nil, true)
                        }
                        return (next, false)
                    }
                    guard let next else {
                        if isOver { observer.onCompleted() }
                        return
                    }
                    // In the slot before subscribing: a source that completes while it is subscribed must not replace
                    // the next one's subscription with its own.
                    let subscription = SingleAssignmentDisposable()
                    current.disposable = subscription
                    subscription.setDisposable(
                        next.subscribe { event in
                            if case .completed = event { subscribeNext() } else { observer.on(event) }
                        })
                }
            }
            subscribeNext()
            return current
        }
    }
}

private struct ConcatSequenceState<Iterator: IteratorProtocol> {
    var iterator: Iterator
    /// Whether a completed source waits for the next one to be subscribed.
    var isPending = false
    /// Whether a thread is in the subscription loop.
    var isSubscribing = false
}
