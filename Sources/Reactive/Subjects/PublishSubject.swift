/// A subject that sends each event to the observers subscribed at the time; a late subscriber
/// receives only the stop event.
///
/// Contract: thread-safe; each observer receives events one at a time, in the order the subject
/// accepted them, on the emitting thread (or on the thread draining that observer's queue when
/// emissions race); nothing after the stop event; no call-out while locked.
///
/// ```swift
/// let taps = PublishSubject<Void>()
/// taps.subscribe(onNext: { print("tap") }).disposed(by: bag)
/// taps.onNext(())
/// ```
public final class PublishSubject<Element>: SubjectBase<Element>, SubjectType {
    /// Creates a subject with no observers.
    @inlinable public init() {
        super.init(core: SubjectCore(bufferLimit: 0, replaysAfterStop: false))
    }

    /// The subject as an observer.
    public func asObserver() -> PublishSubject<Element> {
        self
    }
}

// `@unchecked`: the one stored property is the `SubjectCore`, the lock box of the subject's state. Being the
// subject's `Observable` too, it cannot be `Sendable` in the checked sense (no `Observable` is).
extension PublishSubject: @unchecked Sendable where Element: Sendable {}
