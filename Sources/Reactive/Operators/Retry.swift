import Primitives

extension ObservableType {
    /// Resubscribes to this sequence whenever it fails, for as long as it fails: never sends an error; completes when
    /// an attempt completes.
    ///
    /// ```swift
    /// api.movies().retry()
    /// ```
    public func retry() -> Observable<Element> {
        retrying(maxAttemptCount: nil)
    }

    /// Subscribes to this sequence at most `maxAttemptCount` times, resubscribing when an attempt fails: sends the
    /// error of the last attempt; completes when an attempt completes, and at once for a count of 0 (a negative count
    /// is a reported mistake and counts as 0).
    ///
    /// ```swift
    /// api.movies().retry(3)  // one try and two retries
    /// ```
    public func retry(_ maxAttemptCount: Int) -> Observable<Element> {
        retrying(maxAttemptCount: ProgrammerErrors.checkedCount(maxAttemptCount, "retry(_:)"))
    }

    /// `retry`, with `nil` for no limit.
    private func retrying(maxAttemptCount: Int?) -> Observable<Element> {
        let source = asObservable()
        return Observable.create { observer in
            guard maxAttemptCount != 0 else {
                observer.onCompleted()
                return Disposables.create()
            }
            let attempt = SerialDisposable()
            let state = Locked(RetryState())
            // Subscribes once more; an attempt that fails while it is being subscribed (synchronously) leaves the
            // next one to the loop below rather than nesting it, so a source that keeps failing does not deepen the
            // stack.
            func subscribeAgain() {
                let runsLoop = state.withLock { state -> Bool in
                    state.isPending = true
                    guard !state.isSubscribing else { return false }
                    state.isSubscribing = true
                    return true
                }
                guard runsLoop else { return }
                while state.withLock({ state -> Bool in
                    guard state.isPending, !attempt.isDisposed else {
                        state.isSubscribing = false
                        return false
                    }
                    state.isPending = false
                    state.attempts += 1
                    return true
                }) {
                    // In the slot before subscribing: an attempt that fails while it is subscribed must not replace
                    // the next one's subscription with its own.
                    let subscription = SingleAssignmentDisposable()
                    attempt.disposable = subscription
                    subscription.setDisposable(
                        source.subscribe { event in
                            guard case .error = event else {
                                observer.on(event)
                                return
                            }
                            let retries = state.withLock { state in
                                maxAttemptCount.map { state.attempts < $0 } ?? true
                            }
                            if retries { subscribeAgain() } else { observer.on(event) }
                        })
                }
            }
            subscribeAgain()
            return attempt
        }
    }
}

private struct RetryState {
    /// How many times the source has been subscribed.
    var attempts = 0
    /// Whether a failed attempt waits for the next subscription.
    var isPending = false
    /// Whether a thread is in the subscription loop.
    var isSubscribing = false
}
