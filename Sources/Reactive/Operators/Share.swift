import Primitives

/// How long a shared sequence keeps its connection and replay buffer.
public enum SubjectLifetimeScope: Sendable {
    /// The source subscription and the replay buffer live while there are subscribers; the next
    /// subscriber after that (or after the source stopped) starts a fresh connection.
    case whileConnected
    /// One subject forever: the replay buffer (and a stop event) outlive the subscribers; the
    /// source is reconnected when subscribers return.
    case forever
}

extension ObservableType {
    /// Shares one subscription to this sequence among all subscribers, replaying the last
    /// `replay` elements to each new one.
    ///
    /// ```swift
    /// let shared = expensive.share(replay: 1, scope: .whileConnected)
    /// ```
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Observable<Element> {
        let replay = ProgrammerErrors.checkedCount(replay, "share(replay:)")
        switch scope {
        case .whileConnected: return ShareWhileConnected(asObservable(), replay: replay)
        case .forever: return ShareForever(asObservable(), replay: replay)
        }
    }
}

/// One connection of a shared sequence: a subject, its subscriber count and the source
/// subscription.
///
/// `@unchecked Sendable`: its stored properties are `let`s of thread-safe types (a `SubjectCore` cannot say it is
/// `Sendable`: it is an `Observable`).
final class ShareConnection<Element>: @unchecked Sendable {
    let subject: SubjectCore<Element>
    let upstream = SingleAssignmentDisposable()

    init(replay: Int) {
        subject = SubjectCore(bufferLimit: replay, replaysAfterStop: true)
        Resources.increment()
    }

    deinit {
        Resources.decrement()
    }
}

final class ShareWhileConnected<Element>: Observable<Element> {
    private struct State {
        var connection: ShareConnection<Element>?
        var count = 0
    }

    private let source: Observable<Element>
    private let replay: Int
    private let state = Locked(State())

    init(_ source: Observable<Element>, replay: Int) {
        self.source = source
        self.replay = replay
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        let (connection, isFirst) = state.withLock { state -> (ShareConnection<Element>, Bool) in
            if let connection = state.connection {
                state.count += 1
                return (connection, false)
            }
            let connection = ShareConnection<Element>(replay: replay)
            state.connection = connection
            state.count = 1
            return (connection, true)
        }
        let subscription = connection.subject.subscribe(observer.on)
        if isFirst {
            connection.upstream.setDisposable(
                source.subscribe { [weak self] event in
                    guard event.isStopEvent else {
                        connection.subject.on(event)
                        return
                    }
                    self?.forget(connection)
                    connection.subject.on(event)
                    // Breaks the cycle connection → source subscription → this closure.
                    connection.upstream.dispose()
                })
        }
        return Disposables.create { [self] in
            subscription.dispose()
            let disconnect = state.withLock { state -> Bool in
                guard state.connection === connection else { return false }
                state.count -= 1
                guard state.count == 0 else { return false }
                state.connection = nil
                return true
            }
            if disconnect { connection.upstream.dispose() }
        }
    }

    private func forget(_ connection: ShareConnection<Element>) {
        state.withLock { state in
            if state.connection === connection {
                state.connection = nil
                state.count = 0
            }
        }
    }
}

final class ShareForever<Element>: Observable<Element> {
    private struct State {
        var upstream: SingleAssignmentDisposable?
        var count = 0
    }

    private let source: Observable<Element>
    private let subject: SubjectCore<Element>
    private let state = Locked(State())

    init(_ source: Observable<Element>, replay: Int) {
        self.source = source
        subject = SubjectCore(bufferLimit: replay, replaysAfterStop: true)
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        let subscription = subject.subscribe(observer.on)
        let connect = state.withLock { state -> SingleAssignmentDisposable? in
            state.count += 1
            guard state.upstream == nil else { return nil }
            let upstream = SingleAssignmentDisposable()
            state.upstream = upstream
            return upstream
        }
        if let connect {
            let subject = self.subject
            connect.setDisposable(source.subscribe { event in subject.on(event) })
        }
        return Disposables.create { [self] in
            subscription.dispose()
            let disconnect = state.withLock { state -> SingleAssignmentDisposable? in
                state.count -= 1
                guard state.count == 0 else { return nil }
                defer { state.upstream = nil }
                return state.upstream
            }
            disconnect?.dispose()
        }
    }
}
