/// A `PublishSubject` that can neither fail nor complete: `accept` is its only input.
///
/// Contract: thread-safe (see `PublishSubject`); never sends a stop event.
///
/// ```swift
/// let changes = PublishRelay<Movie>()
/// changes.accept(movie)
/// ```
public final class PublishRelay<Element>: RelayBase<Element> {
    /// Creates a relay with no observers.
    @inlinable public init() {
        super.init(core: SubjectCore(bufferLimit: 0, replaysAfterStop: false))
    }
}

// `@unchecked`: the one stored property is the `SubjectCore`, the lock box of the subject's state. Being the
// subject's `Observable` too, it cannot be `Sendable` in the checked sense (no `Observable` is).
extension PublishRelay: @unchecked Sendable where Element: Sendable {}
