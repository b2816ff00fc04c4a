import Synchronization

/// A thread-safe flag and counter for callbacks that run on server threads.
final class ClosedFlag: Sendable {
    private let count = Atomic<Int>(0)

    func set() { count.add(1, ordering: .relaxed) }
    var isSet: Bool { count.load(ordering: .relaxed) > 0 }
    var timesSet: Int { count.load(ordering: .relaxed) }
}
