/// What the three subjects share: the core behind each, which every member here forwards to. Not open: only
/// ``PublishSubject``, ``BehaviorSubject`` and ``ReplaySubject`` derive from it.
public class SubjectBase<Element>: ObservableType, ObserverType, Cancelable {
    @usableFromInline let core: SubjectCore<Element>

    @usableFromInline
    init(core: SubjectCore<Element>) {
        self.core = core
    }

    /// Whether anyone is subscribed.
    public final var hasObservers: Bool {
        core.hasObservers
    }

    /// Whether `dispose()` has been called.
    public final var isDisposed: Bool {
        core.isDisposed
    }

    /// Sends `event` to every current observer.
    public final func on(_ event: Event<Element>) {
        core.on(event)
    }

    /// Sends `element` to every current observer.
    public final func onNext(_ element: Element) {
        core.onNext(element)
    }

    public final func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        core.subscribe(observer)
    }

    /// The subject's read side: its core, no object of its own.
    public final func asObservable() -> Observable<Element> {
        core
    }

    /// Drops every observer; later subscribers receive `RxError.disposed`.
    public final func dispose() {
        core.dispose()
    }
}

/// What the three relays share: the core behind each (no subject around it: one object less a relay), which every
/// member here forwards to. Not open: only ``PublishRelay``, ``BehaviorRelay`` and ``ReplayRelay`` derive from it.
public class RelayBase<Element>: ObservableType {
    @usableFromInline let core: SubjectCore<Element>

    @usableFromInline
    init(core: SubjectCore<Element>) {
        self.core = core
    }

    /// Sends `event` to every current observer.
    public final func accept(_ event: Element) {
        core.onNext(event)
    }

    public final func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        core.subscribe(observer)
    }

    /// The relay's read side: its core, no object of its own.
    public final func asObservable() -> Observable<Element> {
        core
    }
}
