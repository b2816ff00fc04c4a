import Synchronization

private let liveResources = Atomic<Int>(0)

/// Counts the live objects that subscriptions hold (sinks, subject entries, shared connections,
/// scheduled work), like RxSwift's `Resources.total`.
///
/// Tests read `total` before building a subscription and again after disposing it: a count that
/// does not return to its baseline is a leak.
///
/// ```swift
/// let before = Resources.total
/// subject.map { $0 + 1 }.subscribe(onNext: { _ in }).dispose()
/// #expect(Resources.total == before)
/// ```
public enum Resources {
    /// The number of live subscription resources in the process right now.
    public static var total: Int {
        liveResources.load(ordering: .acquiring)
    }

    @inline(__always)
    static func increment() {
        liveResources.wrappingAdd(1, ordering: .relaxed)
    }

    @inline(__always)
    static func decrement() {
        liveResources.wrappingSubtract(1, ordering: .relaxed)
    }
}
