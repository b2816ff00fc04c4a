/// Holds a screen-owned, non-`Sendable` value (a view controller, a view tree) so that a
/// `Sendable` reference to it can travel to other threads, while every access to the value is
/// checked to run on the owning screen's scheduler.
///
/// `@unchecked Sendable` because the value is only reachable through `value` (which checks the
/// queue) and `run` (which hops onto it); `scheduler.sync` hands only `Sendable` results out.
///
/// ```swift
/// let screen = scheduler.sync { ScreenConfined(MovieDetailViewController(), on: scheduler) }
/// screen.run { viewController in viewController.backButton.tap() }
/// ```
public final class ScreenConfined<Value>: @unchecked Sendable {
    /// The scheduler that owns the value.
    public let scheduler: ScreenScheduler
    // Read and written on `scheduler` only (checked by `value`, or by `run` hopping there). `@usableFromInline`, with
    // `value` inlinable, so a read where `Value` is known is specialised rather than copied through value witnesses.
    @usableFromInline var storage: Value

    /// Boxes `value`, which from now on belongs to `scheduler`.
    public init(_ value: Value, on scheduler: ScreenScheduler) {
        self.scheduler = scheduler
        storage = value
    }

    /// The value. Precondition: the caller runs on `scheduler`.
    @inlinable
    public var value: Value {
        get {
            check()
            return storage
        }
        set {
            check()
            storage = newValue
        }
    }

    /// Schedules `body` onto `scheduler` and calls it there with the value.
    public func run(_ body: @escaping @Sendable (Value) -> Void) {
        scheduler.schedule { body(self.storage) }
    }

    @usableFromInline
    func check() {
        scheduler.assertCurrent("Access to a ScreenConfined<\(Value.self)>")
    }
}
