import Primitives

/// A sequence that shares one subscription to its source through a subject, made only when `connect()` is called,
/// as RxSwift's `ConnectableObservable`.
///
/// Contract: subscribing subscribes to the subject and does not start the source; `connect()` subscribes the
/// subject to the source and returns the connection (the same one while it lasts), whose disposal stops the
/// source. When the source stops, or the connection is disposed, the next `connect()` starts over with a new
/// subject from the factory (the same one for `multicast(_:)`).
///
/// ```swift
/// let shared = api.movies().publish()
/// shared.subscribe(onNext: { print("a", $0) }).disposed(by: bag)
/// shared.subscribe(onNext: { print("b", $0) }).disposed(by: bag)
/// shared.connect().disposed(by: bag)
/// ```
public class ConnectableObservable<Element>: Observable<Element> {
    override init() {}

    /// Subscribes the subject to the source, or returns the live connection.
    public func connect() -> any Disposable {
        ProgrammerErrors.report(
            ProgrammerError(
                mistake: "\(type(of: self)) subclasses ConnectableObservable without overriding connect().",
                fix: "make connectable sequences with publish(), replay(_:) or multicast(_:)."))
        return Disposables.create()
    }
}

extension ObservableType {
    /// A connectable sequence that shares this one through `subject`.
    ///
    /// ```swift
    /// let shared = source.multicast(PublishSubject<Int>())
    /// ```
    public func multicast<Subject: SubjectType>(_ subject: Subject) -> ConnectableObservable<Subject.Element>
    where Subject.Observer.Element == Element {
        MulticastConnectable(asObservable(), makeSubject: { subject })
    }

    /// A connectable sequence that shares this one through a subject `makeSubject` makes for each connection.
    public func multicast<Subject: SubjectType>(makeSubject: @escaping () -> Subject)
        -> ConnectableObservable<Subject.Element> where Subject.Observer.Element == Element
    {
        MulticastConnectable(asObservable(), makeSubject: makeSubject)
    }

    /// For each subscriber, a subject from `subjectSelector` shares this sequence with what `selector` makes of it;
    /// the subscriber receives what `selector`'s sequence sends, and the source is connected after that
    /// subscription. Thrown errors fail the result.
    ///
    /// ```swift
    /// source.multicast({ PublishSubject<Int>() }, selector: { shared in Observable.zip(shared, shared.skip(1)) })
    /// ```
    public func multicast<Subject: SubjectType, Result>(
        _ subjectSelector: @escaping () throws -> Subject,
        selector: @escaping (Observable<Subject.Element>) throws -> Observable<Result>
    ) -> Observable<Result> where Subject.Observer.Element == Element {
        let source = asObservable()
        return Observable.create { observer in
            do {
                let subject = try subjectSelector()
                let connectable = MulticastConnectable(source, makeSubject: { subject })
                let subscription = try selector(connectable.asObservable()).subscribe(observer)
                return Disposables.create(subscription, connectable.connect())
            } catch {
                observer.onError(error)
                return Disposables.create()
            }
        }
    }

    /// A connectable sequence that shares this one through a `PublishSubject`: subscribers receive what the source
    /// sends after they subscribe.
    ///
    /// ```swift
    /// let shared = ticks.publish()
    /// ```
    public func publish() -> ConnectableObservable<Element> {
        multicast { PublishSubject<Element>() }
    }

    /// A connectable sequence that shares this one through a `ReplaySubject` of `bufferSize`: each subscriber first
    /// receives the last `bufferSize` elements of the connection.
    public func replay(_ bufferSize: Int) -> ConnectableObservable<Element> {
        multicast { ReplaySubject<Element>.create(bufferSize: bufferSize) }
    }

    /// A connectable sequence that shares this one through an unbounded `ReplaySubject`: each subscriber first
    /// receives every element of the connection.
    public func replayAll() -> ConnectableObservable<Element> {
        multicast { ReplaySubject<Element>.createUnbounded() }
    }
}

/// The connectable sequence of `multicast`, `publish` and `replay`.
private final class MulticastConnectable<Source, Subject: SubjectType>: ConnectableObservable<Subject.Element>
where Subject.Observer.Element == Source {
    private struct State {
        var subject: Subject?
        var connection: MulticastConnection?
    }

    private let source: Observable<Source>
    private let makeSubject: () -> Subject
    private let state = Locked(State())

    init(_ source: Observable<Source>, makeSubject: @escaping () -> Subject) {
        self.source = source
        self.makeSubject = makeSubject
    }

    /// The subject of the current connection, made when first needed.
    private func subject() -> Subject {
        state.withLock { state in
            if let subject = state.subject { return subject }
            let subject = makeSubject()
            state.subject = subject
            return subject
        }
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Subject.Element {
        subject().subscribe(observer)
    }

    override func connect() -> any Disposable {
        let subject = subject()
        let (connection, isNew) = state.withLock { state -> (MulticastConnection, Bool) in
            if let connection = state.connection { return (connection, false) }
            let connection = MulticastConnection()
            state.connection = connection
            return (connection, true)
        }
        guard isNew else { return connection }
        connection.onDispose = { [weak self] in self?.forget(connection) }
        let observer = subject.asObserver()
        connection.subscription.setDisposable(
            source.subscribe { [weak connection] event in
                // As RxSwift's: a stop event ends the connection (the next `connect()` starts over) before it
                // reaches the subject.
                if event.isStopEvent { connection?.dispose() }
                observer.on(event)
            })
        return connection
    }

    private func forget(_ connection: MulticastConnection) {
        state.withLock { state in
            guard state.connection === connection else { return }
            state.connection = nil
            state.subject = nil
        }
    }
}

/// One connection of a connectable sequence: disposing it stops the source and lets the next `connect()` start
/// over.
///
/// `@unchecked Sendable`: `onDispose` is set once, before the source is subscribed, and taken under `lock`.
private final class MulticastConnection: Cancelable, @unchecked Sendable {
    let subscription = SingleAssignmentDisposable()
    var onDispose: (() -> Void)?
    private let lock = Locked(false)

    init() {
        Resources.increment()
    }

    deinit {
        Resources.decrement()
    }

    var isDisposed: Bool {
        lock.withLock { $0 }
    }

    func dispose() {
        let first = lock.withLock { isDisposed -> Bool in
            defer { isDisposed = true }
            return !isDisposed
        }
        guard first else { return }
        let onDispose = self.onDispose
        self.onDispose = nil
        onDispose?()
        subscription.dispose()
    }
}
