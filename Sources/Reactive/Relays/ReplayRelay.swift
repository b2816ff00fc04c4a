/// A `ReplaySubject` that can neither fail nor complete: `accept` is its only input.
///
/// Contract: thread-safe (see `PublishSubject`); replays the last `bufferSize` elements to each new subscriber
/// synchronously; never sends a stop event.
///
/// ```swift
/// let messages = ReplayRelay<String>.create(bufferSize: 10)
/// messages.accept("Welcome")
/// ```
public final class ReplayRelay<Element>: RelayBase<Element> {
    private init(bufferSize: Int) {
        super.init(core: SubjectCore(bufferLimit: bufferSize, replaysAfterStop: true))
    }

    /// A relay replaying the last `bufferSize` elements (a negative size is a reported mistake and counts as 0).
    public static func create(bufferSize: Int) -> ReplayRelay<Element> {
        ReplayRelay(bufferSize: ProgrammerErrors.checkedCount(bufferSize, "ReplayRelay.create(bufferSize:)"))
    }

    /// A relay replaying every element it ever received.
    public static func createUnbound() -> ReplayRelay<Element> {
        ReplayRelay(bufferSize: Int.max)
    }
}

// `@unchecked`: the one stored property is the `SubjectCore`, the lock box of the subject's state. Being the
// subject's `Observable` too, it cannot be `Sendable` in the checked sense (no `Observable` is).
extension ReplayRelay: @unchecked Sendable where Element: Sendable {}
