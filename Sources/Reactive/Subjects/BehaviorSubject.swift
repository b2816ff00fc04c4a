/// A subject that holds a current value and sends it to each new subscriber, then every later
/// event.
///
/// Contract: as `PublishSubject`; the replay happens synchronously in `subscribe`. After the
/// stop event a new subscriber receives only the stop event.
///
/// ```swift
/// let count = BehaviorSubject(value: 0)
/// count.subscribe(onNext: { print($0) })   // prints 0
/// count.onNext(1)                          // prints 1
/// ```
public final class BehaviorSubject<Element>: SubjectBase<Element>, SubjectType {
    /// Creates a subject whose current value is `value`.
    @inlinable public init(value: Element) {
        super.init(core: SubjectCore(value: value))
    }

    /// The current value. Throws the error the subject failed with, or `RxError.disposed`.
    public func value() throws -> Element {
        try core.latest(describing: "BehaviorSubject")
    }

    /// The subject as an observer.
    public func asObserver() -> BehaviorSubject<Element> {
        self
    }
}

// `@unchecked`: the one stored property is the `SubjectCore`, the lock box of the subject's state. Being the
// subject's `Observable` too, it cannot be `Sendable` in the checked sense (no `Observable` is).
extension BehaviorSubject: @unchecked Sendable where Element: Sendable {}
