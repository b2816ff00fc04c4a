import Synchronization

/// Request ids: a random prefix per process and a counter (`5f3a9c1e-2b`), unique across restarts in practice and
/// cheap to make (one atomic add, no system call per request).
enum RequestID {
    private static let counter = Atomic<UInt64>(0)
    private static let prefix: String = {
        let hex = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }()

    static func next() -> String {
        let number = counter.add(1, ordering: .relaxed).newValue
        return prefix + "-" + String(number, radix: 16)
    }
}
