import HTTPServer
import Synchronization
import TestSupport

/// Keeps the streams a test's handler hands out, as an app would.
final class StreamHub: Sendable {
    private let streams = TestMutex<[EventStream]>([])

    func add(_ stream: EventStream) {
        streams.withLock { $0.append(stream) }
    }

    var count: Int { streams.withLock { $0.count } }

    var all: [EventStream] { streams.withLock { $0 } }

    func removeAll() {
        streams.withLock { $0.removeAll() }
    }
}
