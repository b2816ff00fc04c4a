/// A subject that replays the last `bufferSize` elements (and the stop event, if any) to each
/// new subscriber.
///
/// Contract: as `PublishSubject`; replay happens synchronously in `subscribe`.
///
/// ```swift
/// let history = ReplaySubject<Int>.create(bufferSize: 2)
/// ```
public final class ReplaySubject<Element>: SubjectBase<Element>, SubjectType {
    private init(bufferSize: Int) {
        super.init(core: SubjectCore(bufferLimit: bufferSize, replaysAfterStop: true))
    }

    /// A subject replaying the last `bufferSize` elements.
    public static func create(bufferSize: Int) -> ReplaySubject<Element> {
        ReplaySubject(bufferSize: ProgrammerErrors.checkedCount(bufferSize, "ReplaySubject.create(bufferSize:)"))
    }

    /// A subject replaying every element it ever received.
    public static func createUnbounded() -> ReplaySubject<Element> {
        ReplaySubject(bufferSize: Int.max)
    }

    /// The subject as an observer.
    public func asObserver() -> ReplaySubject<Element> {
        self
    }
}

// `@unchecked`: the one stored property is the `SubjectCore`, the lock box of the subject's state. Being the
// subject's `Observable` too, it cannot be `Sendable` in the checked sense (no `Observable` is).
extension ReplaySubject: @unchecked Sendable where Element: Sendable {}
