/// A sequence of elements over time, the central type of Rx.
///
/// Contract: obeys `next* (error | completed)?`; each subscription is independent unless shared
/// (`share(replay:scope:)`); nothing is delivered after the subscription is disposed. Not
/// `Sendable`: build and subscribe on one thread; move events with `observe(on:)` or a `Driver`.
///
/// ```swift
/// Observable.of(1, 2, 3)
///     .map { $0 * 10 }
///     .subscribe(onNext: { print($0) })
///     .disposed(by: bag)
/// ```
public class Observable<Element>: ObservableType {
    init() {}

    /// Starts delivering events to `observer`.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        ProgrammerErrors.report(
            ProgrammerError(
                mistake:
                    "\(type(of: self)) subclasses Observable without overriding subscribe(_:), so it sends nothing.",
                fix: "make sequences with Observable.create { observer in … } instead of subclassing Observable."))
        return Disposables.create()
    }

    /// Returns itself.
    public func asObservable() -> Observable<Element> {
        self
    }

    /// Whether the subscriptions this observable returns hold their observer only for as long as the source does:
    /// dropping the source (or a stop event, or disposal) releases every observer (true of a subject's entries).
    /// Then an observer may keep its own subscription (and be returned as it) without a cycle that outlives the
    /// source; for any other observable, a subscription that holds its observer, which holds the subscription,
    /// would stay alive until disposed.
    var releasesObserversWithSource: Bool {
        false
    }
}

@available(*, unavailable)
extension Observable: Sendable {}
