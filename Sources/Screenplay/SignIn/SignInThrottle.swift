internal import FoundationEssentials
internal import Glibc
internal import Synchronization

/// Slows down a burst of wrong passwords: after ``freeFailures`` failures for one account name, or from one client
/// address, within ``window``, each attempt for it waits until a delay has passed since the last failure — one
/// second, doubling with each further failure, at most ``maximumDelay``. A success clears the name's count.
final class SignInThrottle: Sendable {
    static let freeFailures = 5
    static let window: Double = 15 * 60
    static let maximumDelay: Double = 5 * 60
    /// At most this many names and addresses are followed; past it, the oldest are forgotten.
    static let capacity = 10_000

    private struct Failures {
        var count: Int
        var last: Double
    }

    private let failures = Mutex<[String: Failures]>([:])
    private let now: @Sendable () -> Double

    init(now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.now = now
    }

    private static func keys(name: String, address: String) -> [String] {
        ["name:" + name.lowercased(), "address:" + address]
    }

    /// How many whole seconds an attempt for `name` from `address` must still wait; 0 when it may go ahead.
    func wait(name: String, address: String) -> Int {
        let time = now()
        return failures.withLock { failures in
            var wait = 0.0
            for key in Self.keys(name: name, address: address) {
                guard let entry = failures[key], time - entry.last < Self.window,
                    entry.count >= Self.freeFailures
                else { continue }
                let delay = min(Self.maximumDelay, pow(2, Double(entry.count - Self.freeFailures)))
                wait = max(wait, entry.last + delay - time)
            }
            return wait > 0 ? Int(wait.rounded(.up)) : 0
        }
    }

    /// Counts a wrong password for `name` from `address`.
    func recordFailure(name: String, address: String) {
        let time = now()
        failures.withLock { failures in
            if failures.count >= Self.capacity {
                let oldest = failures.sorted { $0.value.last < $1.value.last }.prefix(Self.capacity / 10)
                for (key, _) in oldest { failures[key] = nil }
            }
            for key in Self.keys(name: name, address: address) {
                var entry = failures[key] ?? Failures(count: 0, last: time)
                if time - entry.last >= Self.window { entry.count = 0 }
                entry.count += 1
                entry.last = time
                failures[key] = entry
            }
        }
    }

    /// Forgets `name`'s failures after it signed in.
    func recordSuccess(name: String) {
        _ = failures.withLock { $0.removeValue(forKey: "name:" + name.lowercased()) }
    }
}
