import Primitives
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
        /// What is pending does not all fit into the destination of a read asked to take everything or nothing
        /// (`whole`): nothing was taken.
        case needsRoom
    }

    fileprivate struct State {
        var buffer: [UInt8] = []
        /// Bytes of `buffer` already handed to the transport; compacted lazily.
        var sentCount = 0
        /// An event sent with ``EventStream/send(event:id:data:)`` to a stream with nothing else unsent, kept as its
        /// parts and framed when the transport reads it. Never set while `buffer` holds unsent bytes: what comes
        /// after it is written behind its framed bytes in `buffer`.
        var framed: FramedEvent?
        var isClosed = false
        var didOverflow = false
        var isAttached = false
        var bufferLimit = EventStream.defaultBufferLimit
        var parkedWaker: (any StreamWaker)?
        var closeHandlers: [@Sendable () -> Void] = []

        var unsentCount: Int { buffer.count - sentCount + (framed?.count ?? 0) }

        /// Moves a kept event's framed bytes into `buffer`, before anything written after it.
        mutating func frameIntoBuffer() {
            guard let event = framed.take() else { return }
            frameIntoBuffer(event, count: event.count)
        }

        /// Makes `event`, `count` bytes framed, the buffer's content; nothing else is unsent.
        mutating func frameIntoBuffer(_ event: FramedEvent, count: Int) {
            buffer = [UInt8](unsafeUninitializedCapacity: count) { bytes, initialized in
                initialized = event.write(into: UnsafeMutableRawBufferPointer(bytes))
            }
            sentCount = 0
        }

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

    private let state = LockedValue(State())

    /// Whether writes that come in a burst leave together: the first write after a quiet moment is sent by its
    /// writer at once, as on any stream, and those within a millisecond of the one before are sent by the server's
    /// stream thread, soon after, so that what several writers wrote meanwhile leaves in one send. For a stream that
    /// many threads write to at once (one that carries many screens, each writing from its own thread in a fan-out).
    /// One thread sends every batching stream's bursts, so a stream with one writer is better off without. Off by
    /// default; may change at any time.
    public var isBatching: Bool {
        get { batching.load(ordering: .relaxed) }
        set { batching.store(newValue, ordering: .relaxed) }
    }
    private let batching = Atomic<Bool>(false)

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

    /// Sends one event whose `data` is already one line: `event: name`, `id: id`, `data: data`.
    ///
    /// For one payload fanned out to many streams, each with its own event id: the stream keeps a reference to
    /// `data` (no copy, no framed buffer of its own) and frames the event when the connection takes it. A `data`
    /// with a line break, or a `name` with one, is sent as the `String` form of this method sends it: each line its
    /// own `data:` line, the name without its line breaks.
    ///
    /// ```swift
    /// let payload = Array("[\"replace\",\"v3\",\"<b>8.1</b>\"]".utf8)
    /// for (stream, id) in zip(streams, nextIDs) { stream.send(event: "patch", id: id, data: payload) }
    /// ```
    public func send(event name: String, id: Int, data: [UInt8]) {
        guard let event = FramedEvent(name: name, id: id, data: data) else {
            enqueue(EventStream.encode(event: name, id: String(id), data: String(decoding: data, as: UTF8.self)))
            return
        }
        send(event)
    }

    /// Sends `event`, kept as its parts while nothing else is unsent (see ``send(event:id:data:)``). Returns whether
    /// the stream is still open: false when it was closed (the event ignored) or this event closed it (an overflow),
    /// so that a sender of many streams forgets the closed ones without asking each (``isClosed``) on every event.
    ///
    /// Consuming: the stream keeps the caller's event itself (moved in, not copied), where the caller made it for this
    /// stream alone.
    @discardableResult
    package func send(_ event: consuming FramedEvent) -> Bool {
        let count = event.count
        var event = Optional(event)
        let (open, waker, handlers) = state.withLock {
            state -> (Bool, (any StreamWaker)?, [@Sendable () -> Void]) in
            guard !state.isClosed else { return (false, nil, []) }
            let pending = state.unsentCount
            if let overflow = state.overflowIfOver(pending: pending, adding: count) {
                return (false, overflow.waker, overflow.handlers)
            }
            if pending == 0 {
                // The usual case: nothing waiting (a read empties the buffer once all of it is sent), so the parts
                // are kept as they are, moved in.
                state.framed = event.take()
            } else {
                state.frameIntoBuffer()
                if let event = event.take() { state.appendToBuffer(event, count: count) }
            }
            return (true, state.takeParkedWaker(), [])
        }
        waker?.wake()
        for handler in handlers { handler() }
        return open
    }

    /// Sends `event` with its id in `namespace` (``FramedEvent/inNamespace(_:)``), as ``send(_:)`` sends the named
    /// event: the same bytes. Behind unsent bytes (a stream shared by many screens, written by each in a fan-out),
    /// the event is framed in `namespace` straight into the buffer, without a named copy of its parts; only a stream
    /// with nothing unsent keeps a named copy. `namespace` holds no line break and no `.`. Receipt: step 1 of
    /// Benchmarks/History/82-fan-out-screens-10.md. It repeats ``send(_:)``'s locked steps rather than sharing them
    /// through closures, which would box the event ``send(_:)`` moves in.
    @discardableResult
    package func send(_ event: FramedEvent, inNamespace namespace: String) -> Bool {
        let count = event.count(inNamespace: namespace)
        let (open, waker, handlers) = state.withLock {
            state -> (Bool, (any StreamWaker)?, [@Sendable () -> Void]) in
            guard !state.isClosed else { return (false, nil, []) }
            let pending = state.unsentCount
            if let overflow = state.overflowIfOver(pending: pending, adding: count) {
                return (false, overflow.waker, overflow.handlers)
            }
            if pending == 0 {
                state.framed = event.inNamespace(namespace, count: count)
            } else {
                state.frameIntoBuffer()
                state.appendToBuffer(event, count: count, inNamespace: namespace)
            }
            return (true, state.takeParkedWaker(), [])
        }
        waker?.wake()
        for handler in handlers { handler() }
        return open
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

    /// Whether a transport has sent everything and parked on the stream, waiting for the next write (for tests).
    var isParked: Bool {
        state.withLock { $0.parkedWaker != nil }
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
    ///
    /// `whole`: take everything pending or nothing; when it does not all fit into `destination`, nothing is taken
    /// and the answer is ``ReadOutcome/needsRoom``. For a transport that reads into a small buffer first (on its
    /// stack) and into a large one only when the small one is too small.
    func read(
        into destination: UnsafeMutableRawBufferPointer, parkingWith waker: any StreamWaker, whole: Bool = false,
        park: () -> Void
    ) -> ReadOutcome {
        state.withLock { state in
            if state.didOverflow { return .aborted }
            if let event = state.framed.take() {
                // Buffered bytes never wait behind a kept event: they would have been framed into the buffer.
                let count = event.count
                if count <= destination.count { return .bytes(event.write(into: destination)) }
                if whole {
                    state.framed = consume event
                    return .needsRoom
                }
                // Larger than the transport's room: framed once into the buffer, read from there in pieces.
                state.frameIntoBuffer(event, count: count)
            }
            let available = state.buffer.count - state.sentCount
            if available == 0 {
                if state.isClosed { return .ended }
                park()
                state.parkedWaker = waker
                return .parked
            }
            if whole && available > destination.count { return .needsRoom }
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
            state.framed = nil
            return state.close().handlers
        }
        for handler in handlers { handler() }
    }

    private func enqueue(_ bytes: [UInt8]) {
        let (waker, handlers) = state.withLock { state -> ((any StreamWaker)?, [@Sendable () -> Void]) in
            guard !state.isClosed else { return (nil, []) }
            let pending = state.unsentCount
            if let overflow = state.overflowIfOver(pending: pending, adding: bytes.count) { return overflow }
            if pending == 0 {
                // The usual case: adopt the caller's array instead of copying it (one encoding
                // fanned out to many streams stays one buffer).
                state.buffer = bytes
                state.sentCount = 0
            } else {
                state.frameIntoBuffer()
                state.appendToBuffer(bytes)
            }
            return (state.takeParkedWaker(), [])
        }
        waker?.wake()
        for handler in handlers { handler() }
    }
}

extension EventStream.State {
    /// Closes an overflowing stream: `count` more bytes would take its `pending` unsent bytes past the bound. Returns what
    /// must run after unlocking, or nil when the bytes fit.
    fileprivate mutating func overflowIfOver(
        pending: Int, adding count: Int
    ) -> (waker: (any StreamWaker)?, handlers: [@Sendable () -> Void])? {
        guard pending + count > bufferLimit else { return nil }
        didOverflow = true
        buffer = []
        sentCount = 0
        framed = nil
        return close()
    }

    /// Appends `bytes` behind the unsent ones, dropping the sent ones first when they are at least half the buffer.
    fileprivate mutating func appendToBuffer(_ bytes: [UInt8]) {
        dropSentBytesIfHalf()
        buffer.append(contentsOf: bytes)
    }

    /// Appends `event`'s `count` framed bytes behind the unsent ones, without an array of their own
    /// (``FramedEvent/append(to:count:)``).
    fileprivate mutating func appendToBuffer(_ event: FramedEvent, count: Int) {
        dropSentBytesIfHalf()
        event.append(to: &buffer, count: count)
    }

    /// Appends the `count` framed bytes of `event` in `namespace` behind the unsent ones, without a named copy of it
    /// (``FramedEvent/append(to:count:inNamespace:)``).
    fileprivate mutating func appendToBuffer(_ event: FramedEvent, count: Int, inNamespace namespace: String) {
        dropSentBytesIfHalf()
        event.append(to: &buffer, count: count, inNamespace: namespace)
    }

    /// Drops the sent bytes when they are at least half the buffer.
    private mutating func dropSentBytesIfHalf() {
        if sentCount > 0 && sentCount >= buffer.count / 2 {
            buffer.removeFirst(sentCount)
            sentCount = 0
        }
    }

    /// The waker of a parked transport, taken: it is woken once.
    fileprivate mutating func takeParkedWaker() -> (any StreamWaker)? {
        defer { parkedWaker = nil }
        return parkedWaker
    }
}

/// Wakes a transport that parked itself because a stream had nothing to send.
///
/// Class-bound: the transports are objects, and a copy of a class-bound existential is a reference count, where a
/// copy of an open one went through the run-time's value witnesses (each send copies its stream's waker).
protocol StreamWaker: AnyObject, Sendable {
    /// Called at most once per parking, outside the stream's lock.
    func wake()
}
