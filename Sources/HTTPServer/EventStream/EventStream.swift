import Synchronization

/// A server-sent event stream to one client: keep it, write to it from any thread, close it when done.
///
/// Contract:
/// - Writing never blocks: bytes are appended to the stream's buffer and the connection is woken.
///   Events written before the response is sent are delivered first, in order.
/// - A client that does not read fast enough is cut off: past the server's `maxStreamBuffer`
///   unsent bytes, the stream closes (the client's `EventSource` reconnects).
/// - An idle stream costs no thread and no CPU; the server sends `: hb` heartbeats on one shared
///   timer, which is also how a vanished client is noticed.
/// - A stream goes to one client: returning the same stream from two requests is a programmer
///   error, answered with a 500 on the second.
/// - ``onClose(_:)`` handlers run exactly once, when ``close()`` is called, the client goes away,
///   the stream overflows or the server stops, on whichever thread notices it. After that, writes
///   are ignored.
///
/// ```swift
/// router.get("/ticks") { _ in
///     let stream = EventStream()
///     stream.send(event: "hello", id: "1", data: "first line\nsecond line")
///     ticker.add(stream)
///     stream.onClose { ticker.remove(stream) }
///     return .eventStream(stream)
/// }
/// ```
public final class EventStream: Sendable {
    /// What the transport gets from ``read(into:park:)``.
    enum ReadOutcome: Equatable {
        /// `count` bytes were copied.
        case bytes(Int)
        /// Nothing to send; `park` ran while the lock was held.
        case parked
        /// The stream was closed and everything was sent: end the response.
        case ended
        /// The stream overflowed or the transport must give up: drop the connection.
        case aborted
    }

    private struct State {
        var buffer: [UInt8] = []
        /// Bytes of `buffer` already handed to the transport; compacted lazily.
        var sentCount = 0
        var isClosed = false
        var didOverflow = false
        var isAttached = false
        var bufferLimit = EventStream.defaultBufferLimit
        var parkedWaker: (any StreamWaker)?
        var closeHandlers: [@Sendable () -> Void] = []

        var unsentCount: Int { buffer.count - sentCount }

        /// Marks the stream closed and hands back what must run after unlocking.
        mutating func close() -> (waker: (any StreamWaker)?, handlers: [@Sendable () -> Void]) {
            guard !isClosed else { return (nil, []) }
            isClosed = true
            let waker = parkedWaker
            parkedWaker = nil
            let handlers = closeHandlers
            closeHandlers = []
            return (waker, handlers)
        }
    }

    /// The bound on unsent bytes before the stream is attached to a connection.
    static let defaultBufferLimit = 1 << 20

    private let state = Locked(State())

    /// Creates an open stream with nothing written yet.
    public init() {}

    /// Sends one event: an optional `event:` name, an optional `id:`, and `data`, whose lines
    /// (split at `\n`, `\r\n` or `\r`) each become a `data:` line.
    ///
    /// Line breaks in `event` and `id` would end the field early, so they are removed.
    public func send(event: String? = nil, id: String? = nil, data: String) {
        enqueue(EventStream.encode(event: event, id: id, data: data))
    }

    /// Sends bytes that are already encoded as one or more complete events, so one encoding can
    /// be fanned out to many streams.
    public func send(raw bytes: [UInt8]) {
        enqueue(bytes)
    }

    /// Sends a comment line (`: text`), which clients ignore; line breaks start further comment lines.
    public func comment(_ text: String) {
        enqueue(EventStream.encodeComment(text))
    }

    /// Ends the stream after the bytes already written are sent, and runs the close handlers.
    public func close() {
        let (waker, handlers) = state.withLock { $0.close() }
        waker?.wake()
        for handler in handlers { handler() }
    }

    /// Whether the stream is closed, by ``close()``, the client, an overflow or server shutdown.
    public var isClosed: Bool {
        state.withLock { $0.isClosed }
    }

    /// Registers `handler` to run once when the stream closes; runs it at once if it is closed already.
    public func onClose(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state in
            if state.isClosed { return true }
            state.closeHandlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    // MARK: - Transport side

    /// Claims the stream for one connection and sets its bound on unsent bytes. Returns `false`
    /// when another connection has it already: two readers would steal each other's wake-ups.
    func attach(bufferLimit: Int) -> Bool {
        state.withLock { state in
            guard !state.isAttached else { return false }
            state.isAttached = true
            state.bufferLimit = bufferLimit
            return true
        }
    }

    /// Copies pending bytes into `destination`. With nothing pending on an open stream, runs `park`
    /// and remembers `waker` under the lock, so a concurrent write cannot slip between the check and
    /// the parking and be missed.
    func read(
        into destination: UnsafeMutableRawBufferPointer, parkingWith waker: any StreamWaker, park: () -> Void
    ) -> ReadOutcome {
        state.withLock { state in
            if state.didOverflow { return .aborted }
            let available = state.unsentCount
            if available == 0 {
                if state.isClosed { return .ended }
                park()
                state.parkedWaker = waker
                return .parked
            }
            let count = min(available, destination.count)
            state.buffer.withUnsafeBytes { source in
                destination.baseAddress!.copyMemory(
                    from: source.baseAddress! + state.sentCount, byteCount: count)
            }
            state.sentCount += count
            if state.sentCount == state.buffer.count {
                // Released, not kept: most streams are idle between rare events, and a kept buffer
                // would hold the largest burst (a whole-page reset) for the life of the stream.
                state.buffer = []
                state.sentCount = 0
            }
            return .bytes(count)
        }
    }

    /// Whether the stream was closed for holding more unsent bytes than its bound.
    var hasOverflowed: Bool {
        state.withLock { $0.didOverflow }
    }

    /// The connection is gone (client left, response freed): close without waking anything.
    func transportDidFinish() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            state.parkedWaker = nil
            state.buffer = []
            state.sentCount = 0
            return state.close().handlers
        }
        for handler in handlers { handler() }
    }

    private func enqueue(_ bytes: [UInt8]) {
        let (waker, handlers) = state.withLock { state -> ((any StreamWaker)?, [@Sendable () -> Void]) in
            guard !state.isClosed else { return (nil, []) }
            if state.unsentCount + bytes.count > state.bufferLimit {
                state.didOverflow = true
                state.buffer = []
                state.sentCount = 0
                return state.close()
            }
            if state.buffer.isEmpty {
                // The usual case: adopt the caller's array instead of copying it (one encoding
                // fanned out to many streams, or kept in a replay log, stays one buffer).
                state.buffer = bytes
                state.sentCount = 0
            } else {
                if state.sentCount > 0 && state.sentCount >= state.buffer.count / 2 {
                    state.buffer.removeFirst(state.sentCount)
                    state.sentCount = 0
                }
                state.buffer.append(contentsOf: bytes)
            }
            let waker = state.parkedWaker
            state.parkedWaker = nil
            return (waker, [])
        }
        waker?.wake()
        for handler in handlers { handler() }
    }
}

/// Wakes a transport that parked itself because a stream had nothing to send.
protocol StreamWaker: Sendable {
    /// Called at most once per parking, outside the stream's lock.
    func wake()
}
