import Primitives

extension ConnectableObservable {
    /// A sequence that connects this one when its first subscriber subscribes and disconnects it when the last one
    /// leaves, or when the source stops; a later subscriber connects anew.
    ///
    /// ```swift
    /// let shared = api.movies().publish().refCount()
    /// ```
    public func refCount() -> Observable<Element> {
        RefCountObservable(self)
    }
}

private final class RefCountObservable<Element>: Observable<Element> {
    private struct State {
        var count = 0
        var connection: (any Disposable)?
        /// Changes at each disconnection, so that a subscription of an older connection does not count in the new.
        var generation = 0
    }

    private let source: ConnectableObservable<Element>
    private let state = Locked(State())

    init(_ source: ConnectableObservable<Element>) {
        self.source = source
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        let (generation, connects) = state.withLock { state -> (Int, Bool) in
            state.count += 1
            return (state.generation, state.count == 1)
        }
        let subscription = source.subscribe(
            AnyObserver<Element> { [weak self] event in
                if event.isStopEvent { self?.disconnect(generation) }
                observer.on(event)
            })
        if connects {
            let connection = source.connect()
            let stale = state.withLock { state -> Bool in
                guard state.generation == generation, state.count > 0 else { return true }
                state.connection = connection
                return false
            }
            if stale { connection.dispose() }
        }
        return Disposables.create { [weak self] in
            subscription.dispose()
            self?.release(generation)
        }
    }

    /// One subscriber of `generation` left.
    private func release(_ generation: Int) {
        let connection = state.withLock { state -> (any Disposable)? in
            guard state.generation == generation else { return nil }
            state.count -= 1
            guard state.count == 0 else { return nil }
            state.generation += 1
            defer { state.connection = nil }
            return state.connection
        }
        connection?.dispose()
    }

    /// The source of `generation` stopped.
    private func disconnect(_ generation: Int) {
        let connection = state.withLock { state -> (any Disposable)? in
            guard state.generation == generation else { return nil }
            state.count = 0
            state.generation += 1
            defer { state.connection = nil }
            return state.connection
        }
        connection?.dispose()
    }
}
