import Dispatch
import Primitives
import Synchronization

/// The event streams attached to connections: one heartbeat timer writes to all of them, and
/// shutdown closes them and waits until every connection has let go.
final class StreamRegistry: Sendable {
    private let streams = LockedValue<[ObjectIdentifier: EventStream]>([:])

    func add(_ stream: EventStream, for owner: ObjectIdentifier) {
        streams.withLock { $0[owner] = stream }
    }

    func remove(_ owner: ObjectIdentifier) {
        _ = streams.withLock { $0.removeValue(forKey: owner) }
    }

    var count: Int {
        streams.withLock { $0.count }
    }

    /// The streams at this moment; callers write to them after the lock is released.
    func snapshot() -> [EventStream] {
        streams.withLock { Array($0.values) }
    }

    /// Sends the heartbeat comment to every stream.
    func sendHeartbeats() {
        for stream in snapshot() { stream.send(raw: EventStream.heartbeat) }
    }

    func closeAll() {
        for stream in snapshot() { stream.close() }
    }
}

/// Fires ``StreamRegistry/sendHeartbeats()`` on an interval from one timer for the whole server.
final class HeartbeatTimer: Sendable {
    private let timer: LockedValue<(any DispatchSourceTimer)?>

    init(interval: Duration, registry: StreamRegistry) {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        let nanoseconds = max(
            1_000_000,
            Int(interval.components.seconds) * 1_000_000_000
                + Int(interval.components.attoseconds / 1_000_000_000))
        timer.schedule(
            deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds),
            leeway: .nanoseconds(nanoseconds / 10))
        timer.setEventHandler { registry.sendHeartbeats() }
        timer.resume()
        self.timer = LockedValue(timer)
    }

    func cancel() {
        let timer = self.timer.withLock { timer in
            defer { timer = nil }
            return timer
        }
        timer?.cancel()
    }
}
