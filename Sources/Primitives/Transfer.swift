/// Carries a value to exactly one other thread (a scheduler hop).
///
/// `@unchecked Sendable` because the Rx scheduler contract hands an action, with the observer and
/// element it closes over, to the scheduler's thread and the sender never touches it again; the
/// grammar serialises deliveries, so the value is used by one thread at a time.
public struct Transfer<Value>: @unchecked Sendable {
    public let value: Value

    @inlinable
    public init(_ value: Value) {
        self.value = value
    }
}
