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

    /// Routes for a test server: `GET /events` hands out a new stream kept here (after `early` events; batching
    /// with `batching`), and `GET /ok` answers `ok`.
    func routes(early: [String] = [], batching: Bool = false) -> (Router) -> Void {
        { router in
            router.get("/events") { _ in
                let stream = EventStream()
                stream.isBatching = batching
                for (index, data) in early.enumerated() { stream.send(event: "early", id: "\(index)", data: data) }
                self.add(stream)
                return .eventStream(stream)
            }
            router.get("/ok") { _ in .text("ok") }
        }
    }
}
