/// A `BehaviorSubject` that can neither fail nor complete: it always has a `value`.
///
/// Contract: thread-safe (see `PublishSubject`); replays the current value to each new
/// subscriber synchronously; never sends a stop event.
///
/// ```swift
/// let rating = BehaviorRelay(value: 3)
/// rating.accept(rating.value + 1)
/// ```
public final class BehaviorRelay<Element>: RelayBase<Element> {
    /// Creates a relay whose current value is `value`.
    @inlinable public init(value: Element) {
        super.init(core: SubjectCore(value: value))
    }

    /// The current value.
    public var value: Element {
        // A relay never fails and is never disposed, so `value()` cannot throw.
        try! core.latest(describing: "BehaviorRelay")
    }
}

// `@unchecked`: the one stored property is the `SubjectCore`, the lock box of the subject's state. Being the
// subject's `Observable` too, it cannot be `Sendable` in the checked sense (no `Observable` is).
extension BehaviorRelay: @unchecked Sendable where Element: Sendable {}
