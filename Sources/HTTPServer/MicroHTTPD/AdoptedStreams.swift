internal import CMicroHTTPD
import Glibc
import Primitives
import Synchronization

/// Event streams sent on sockets the server takes over from libmicrohttpd once a stream's request is answered.
///
/// Why: libmicrohttpd keeps a connection's memory pool (12 KiB here, most of it touched) for as long as the
/// response lasts, and an event stream lasts as long as its page is open: 10,000 open streams held 120 MiB of
/// pools. It also sends every event through a resume, a wake-up of its I/O thread and a suspend. An adopted stream is
/// a socket and one small object; a writer sends on the socket from its own thread, never blocking (what the socket
/// does not take waits for room), and one epoll thread watches every adopted socket for the client going away and
/// for room to write. An idle adopted stream costs no thread and no CPU.
///
/// How: the daemon runs with `MHD_USE_TURBO`, whose connection close does not `shutdown()` the socket. For an event
/// stream the access handler duplicates the connection's socket, hands the duplicate here with the response head,
/// and answers `MHD_NO`: libmicrohttpd closes its descriptor and frees the connection, and the socket stays open
/// through the duplicate. The head and the body are what libmicrohttpd would have sent (chunked for HTTP/1.1; for
/// HTTP/1.0 a body that ends when the connection closes).
final class AdoptedStreams: Sendable {
    private struct State {
        var open: [UInt64: AdoptedStream] = [:]
        var nextToken: UInt64 = 1
        var isStopped = false
    }

    private let registry: StreamRegistry
    private let epoll: Int32
    private let wakeup: Int32
    private let state = LockedValue(State())
    private let thread = LockedValue<pthread_t?>(nil)
    private let woken = LockedValue(WokenStreams())

    /// Streams a writer woke, waiting for the epoll thread to send what they hold (``schedulePump(_:)``).
    private struct WokenStreams {
        var streams: [AdoptedStream] = []
        /// Whether the epoll thread has been signalled and has not yet found the list empty: no second signal then.
        var isSignalled = false
        /// Set by ``stop()`` before the `eventfd` closes: no writer signals it after that.
        var isClosed = false
    }

    /// The most streams open at once; more are answered 503.
    let limit: Int
    /// The `send` calls made on adopted sockets so far (for tests).
    let sendCalls = Atomic<Int>(0)
    /// The batching streams' wakes whose writer sent the stream's bytes itself, as the first of a burst (for tests).
    let writerSends = Atomic<Int>(0)
    /// Wakes of a batching stream closer together than this, in nanoseconds, are one burst
    /// (``ServerConfiguration/eventStreamBurstGap``).
    let burstGap: UInt64

    init(registry: StreamRegistry, limit: Int, burstGap: Duration = .milliseconds(1)) throws {
        self.registry = registry
        self.limit = limit
        let (seconds, attoseconds) = burstGap.components
        self.burstGap = UInt64(max(0, seconds)) &* 1_000_000_000 &+ UInt64(max(0, attoseconds / 1_000_000_000))
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        wakeup = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard epoll >= 0, wakeup >= 0 else {
            let reason = String(cString: strerror(errno))
            if epoll >= 0 { close(epoll) }
            if wakeup >= 0 { close(wakeup) }
            throw ServerError("cannot create the event streams' epoll set: \(reason)")
        }
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(u64: 0))
        epoll_ctl(epoll, EPOLL_CTL_ADD, wakeup, &event)
        var created = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        // Like libmicrohttpd's threads, this one leaves SIGINT and SIGTERM to `waitForTerminationSignal`.
        let previousMask = SignalMask.blockTermination()
        defer { SignalMask.restore(previousMask) }
        let status = pthread_create(
            &created, nil,
            { context in
                Unmanaged<AdoptedStreams>.fromOpaque(context!).takeRetainedValue().watch()
                return nil
            }, context)
        guard status == 0 else {
            Unmanaged<AdoptedStreams>.fromOpaque(context).release()
            close(epoll)
            close(wakeup)
            throw ServerError("cannot start the event streams' thread: \(String(cString: strerror(status)))")
        }
        thread.withLock { $0 = created }
    }

    /// Streams open right now.
    var count: Int {
        state.withLock { $0.open.count }
    }

    /// Takes `socket` (a duplicate, closed here when the stream ends) for `stream`, which is already attached; sends
    /// `head`, then whatever the stream holds and everything written to it later. Returns `false` (and ends the
    /// stream and closes the socket) when the stream cannot be watched.
    func adopt(socket: Int32, stream: EventStream, isChunked: Bool, head: [UInt8]) -> Bool {
        var on: Int32 = 1
        var off: Int32 = 0
        // libmicrohttpd may have left the socket corked from an earlier response on the connection.
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_CORK, &off, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        let adopted = state.withLock { state -> AdoptedStream? in
            guard !state.isStopped else { return nil }
            let token = state.nextToken
            state.nextToken += 1
            let adopted = AdoptedStream(
                socket: socket, stream: stream, isChunked: isChunked, token: token, owner: self, head: head)
            state.open[token] = adopted
            return adopted
        }
        guard let adopted else {
            close(socket)
            stream.transportDidFinish()
            return false
        }
        registry.add(stream, for: ObjectIdentifier(adopted))
        // A reader too slow for its writers is cut off at once: waiting for the socket to take what it holds could
        // be forever, when the client is still connected but reads nothing. Held strongly (a weak reference would
        // give every adopted stream a side table): the stream drops its handlers when it closes, and every adopted
        // stream's end closes it.
        stream.onClose {
            if stream.hasOverflowed { adopted.end() }
        }
        guard watch(adopted, forRoom: false, adding: true) else {
            adopted.end()
            return false
        }
        adopted.pump()
        return true
    }

    /// Sets what the epoll thread waits for on `stream`'s socket: the client leaving (always) and room to write.
    @discardableResult
    func watch(_ stream: AdoptedStream, forRoom: Bool, adding: Bool = false) -> Bool {
        var events = EPOLLIN.rawValue | EPOLLRDHUP.rawValue
        if forRoom { events |= EPOLLOUT.rawValue }
        var event = epoll_event(events: events, data: epoll_data_t(u64: stream.token))
        return epoll_ctl(epoll, adding ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, stream.socket, &event) == 0
    }

    /// Forgets a stream its own lock has marked finished: stops watching and closes its socket, then ends the
    /// stream (its close handlers run here).
    func finish(_ stream: AdoptedStream) {
        _ = state.withLock { $0.open.removeValue(forKey: stream.token) }
        epoll_ctl(epoll, EPOLL_CTL_DEL, stream.socket, nil)
        close(stream.socket)
        registry.remove(ObjectIdentifier(stream))
        stream.stream.transportDidFinish()
    }

    /// Ends every stream still open (closing their sockets) and stops the thread. For the end of the server's stop,
    /// after streams had their chance to end cleanly.
    func stop() {
        let remaining = state.withLock { state -> [AdoptedStream] in
            state.isStopped = true
            return Array(state.open.values)
        }
        for stream in remaining { stream.end() }
        let running = thread.withLock { thread in
            defer { thread = nil }
            return thread
        }
        guard let running else { return }
        var one: UInt64 = 1
        _ = write(wakeup, &one, MemoryLayout<UInt64>.size)
        pthread_join(running, nil)
        woken.withLock { woken in
            woken.isClosed = true
            woken.streams = []
        }
        close(epoll)
        close(wakeup)
    }

    /// Has the epoll thread send what a batching `stream` holds (``EventStream/isBatching``), soon, instead of
    /// the writer sending it now: for the writes of a burst after its first (``AdoptedStream/wake()``).
    ///
    /// Why: in a fan-out, many screens write to one shared stream within a few microseconds of each other, each
    /// from its own screen's thread. Sent at once, every event was a `send` of its own (ten for a stream shared by
    /// ten screens); sent by this thread, the events that came meanwhile leave together, and the writers' threads
    /// go on to the next screen. The writer signals this thread only when it is not signalled already, so a burst
    /// of writes costs one `eventfd` write. Streams with one writer each stay with their writers: one thread sending
    /// 10,000 of them in turn was slower than the writers' threads sending each their own. Figures:
    /// Benchmarks/History/36-fan-out-sends.md.
    func schedulePump(_ stream: AdoptedStream) {
        woken.withLock { woken in
            guard !woken.isClosed else { return }
            woken.streams.append(stream)
            guard !woken.isSignalled else { return }
            woken.isSignalled = true
            // Under the lock, so that the descriptor cannot be closed (and its number reused) meanwhile.
            var one: UInt64 = 1
            _ = write(wakeup, &one, MemoryLayout<UInt64>.size)
        }
    }

    /// Sends what the woken streams hold, until none is left; true when the server is stopping.
    private func pumpWokenStreams() -> Bool {
        var count: UInt64 = 0
        _ = read(wakeup, &count, MemoryLayout<UInt64>.size)
        if state.withLock({ $0.isStopped }) { return true }
        var batch: [AdoptedStream] = []
        while true {
            woken.withLock { woken in
                swap(&batch, &woken.streams)
                if batch.isEmpty { woken.isSignalled = false }
            }
            if batch.isEmpty { return false }
            for stream in batch { stream.pump() }
            batch.removeAll(keepingCapacity: true)
        }
    }

    /// The epoll thread: until `stop`, ends streams whose client left, resumes those with room to write again and
    /// sends what writers woke streams for.
    private func watch() {
        var ready = [epoll_event](repeating: epoll_event(), count: 256)
        while true {
            let count = epoll_wait(epoll, &ready, Int32(ready.count), -1)
            if count < 0 {
                if errno == EINTR { continue }
                ServerLog.error("event streams: epoll_wait failed: \(String(cString: strerror(errno)))")
                return
            }
            for index in 0..<Int(count) {
                let token = ready[index].data.u64
                if token == 0 {
                    if pumpWokenStreams() { return }
                    continue
                }
                guard let stream = state.withLock({ $0.open[token] }) else { continue }
                let events = ready[index].events
                if events & (EPOLLHUP.rawValue | EPOLLERR.rawValue | EPOLLRDHUP.rawValue) != 0 {
                    stream.end()
                    continue
                }
                if events & EPOLLIN.rawValue != 0, !stream.discardIncoming() {
                    stream.end()
                    continue
                }
                if events & EPOLLOUT.rawValue != 0 { stream.pump() }
            }
        }
    }
}

/// One adopted event stream: its socket, and the bytes the socket has not taken yet.
final class AdoptedStream: StreamWaker, Sendable {
    private struct State {
        /// Framed bytes the socket did not take; nothing more is read from the stream until they are sent.
        var unsent: [UInt8]
        var isWaitingForRoom = false
        var isFinished = false
    }

    let socket: Int32
    let stream: EventStream
    let token: UInt64
    private let isChunked: Bool
    private let owner: AdoptedStreams
    private let state: LockedValue<State>

    /// The most stream bytes read for one write; the chunk framing adds at most 12.
    static let chunkCapacity = 16 * 1024
    /// The stream bytes a wake reads first, into a buffer on the stack: with the chunk framing, the largest
    /// temporary allocation that stays on the stack without a check of the thread's stack.
    static let smallChunkCapacity = 1024 - 12

    fileprivate init(
        socket: Int32, stream: EventStream, isChunked: Bool, token: UInt64, owner: AdoptedStreams, head: [UInt8]
    ) {
        self.socket = socket
        self.stream = stream
        self.isChunked = isChunked
        self.token = token
        self.owner = owner
        state = LockedValue(State(unsent: head))
    }

    /// A writer added bytes to the parked stream: the writer's thread sends them, or, for a batching stream woken
    /// again within the burst gap of its last wake (``AdoptedStreams/burstGap``), the epoll thread does (``AdoptedStreams/schedulePump(_:)``). The
    /// first event of a burst leaves at once; the ones behind it, written by other screens' threads moments later,
    /// leave together.
    func wake() {
        guard stream.isBatching else { return pump() }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nanoseconds = UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
        let previous = lastWake.exchange(nanoseconds, ordering: .relaxed)
        if nanoseconds &- previous > owner.burstGap {
            owner.writerSends.add(1, ordering: .relaxed)
            pump()
        } else {
            owner.schedulePump(self)
        }
    }

    /// The monotonic time of the last wake, in nanoseconds (0: none yet).
    private let lastWake = Atomic<UInt64>(0)

    /// Ends the stream now (client gone, or the server stopping), unless it has ended already.
    func end() {
        let isFirst = state.withLock { state in
            defer { state.isFinished = true }
            return !state.isFinished
        }
        if isFirst { owner.finish(self) }
    }

    /// Sends until the socket is full (then waits for room) or the stream has nothing more (then parks on it).
    func pump() {
        let isEnding = state.withLock { state -> Bool in
            guard !state.isFinished else { return false }
            switch send(&state.unsent) {
            case .failed:
                state.isFinished = true
                return true
            case .full:
                if !state.isWaitingForRoom { state.isWaitingForRoom = owner.watch(self, forRoom: true) }
                return false
            case .sent, .needsRoom:  // `needsRoom`: an answer of a drain, not of a send
                break
            }
            if state.isWaitingForRoom {
                owner.watch(self, forRoom: false)
                state.isWaitingForRoom = false
            }
            // Small first: what one wake usually sends (an event or two of a fan-out) fits in a buffer on the stack,
            // where the large one was a heap allocation for every wake; the large one only when what is pending
            // does not fit (a page's `reset`, a burst on a shared stream). Receipt: step 1 of
            // Benchmarks/History/74-fan-out-screens-6.md.
            var outcome = withUnsafeTemporaryAllocation(byteCount: Self.smallChunkCapacity + 12, alignment: 1) {
                drain(into: $0, capacity: Self.smallChunkCapacity, state: &state)
            }
            if outcome == .needsRoom {
                outcome = withUnsafeTemporaryAllocation(byteCount: Self.chunkCapacity + 12, alignment: 1) {
                    drain(into: $0, capacity: Self.chunkCapacity, state: &state)
                }
            }
            if outcome != .sent { state.isFinished = true }
            return outcome != .sent
        }
        if isEnding { owner.finish(self) }
    }

    /// Reads the stream into `scratch`, `capacity` bytes of it and 12 for the chunk framing, and sends it until the
    /// stream parks (`.sent`), the socket is full (the rest waits in `state.unsent`; `.sent`), or the stream or the
    /// socket is done (`.failed`). Into a small scratch (`capacity` below ``chunkCapacity``) it reads only what
    /// fits whole, and answers `.needsRoom` when what is pending does not (nothing taken): the caller drains again
    /// into a large one.
    private func drain(into scratch: UnsafeMutableRawBufferPointer, capacity: Int, state: inout State) -> SendOutcome {
        // Chunked framing: up to 8 hex digits and CRLF before the body (right-aligned in 10 bytes), CRLF after it.
        let bodyStart = isChunked ? 10 : 0
        let body = UnsafeMutableRawBufferPointer(rebasing: scratch[bodyStart..<(bodyStart + capacity)])
        let whole = capacity < Self.chunkCapacity
        while true {
            switch stream.read(into: body, parkingWith: self, whole: whole, park: {}) {
            case .needsRoom:
                return .needsRoom
            case .parked:
                return .sent
            case .aborted:
                return .failed
            case .ended:
                if isChunked {
                    var terminator: [UInt8] = Array("0\r\n\r\n".utf8)
                    _ = send(&terminator)
                }
                return .failed
            case .bytes(let count):
                var start = bodyStart
                var end = bodyStart + count
                if isChunked {
                    // The size in hex, written backwards in front of the body (no string or array per chunk: every
                    // stream of a fan-out sends one).
                    start -= 2
                    scratch[start] = 13
                    scratch[start + 1] = 10
                    var remaining = count
                    repeat {
                        start -= 1
                        let digit = UInt8(remaining & 0xF)
                        scratch[start] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
                        remaining >>= 4
                    } while remaining > 0
                    scratch[end] = 13
                    scratch[end + 1] = 10
                    end += 2
                }
                let framed = UnsafeRawBufferPointer(rebasing: scratch[start..<end])
                let sent = sendSome(framed)
                if sent < 0 { return .failed }
                if sent < framed.count {
                    state.unsent = Array(framed[sent...])
                    if !state.isWaitingForRoom { state.isWaitingForRoom = owner.watch(self, forRoom: true) }
                    return .sent
                }
            }
        }
    }

    private enum SendOutcome {
        case sent, full, failed
        /// A small scratch could not take what is pending whole (``drain(into:capacity:state:)``).
        case needsRoom
    }

    /// Sends `bytes`, keeping what the socket does not take.
    private func send(_ bytes: inout [UInt8]) -> SendOutcome {
        guard !bytes.isEmpty else { return .sent }
        let sent = bytes.withUnsafeBytes { sendSome($0) }
        if sent < 0 { return .failed }
        if sent == bytes.count {
            bytes = []
            return .sent
        }
        bytes.removeFirst(sent)
        return .full
    }

    /// Bytes the socket took (0 when it is full), or -1 when the connection is gone.
    private func sendSome(_ bytes: UnsafeRawBufferPointer) -> Int {
        owner.sendCalls.add(1, ordering: .relaxed)
        while true {
            let sent = Glibc.send(socket, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            if sent >= 0 { return sent }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1
        }
    }

    /// Reads and drops what the client sent (an event stream expects nothing); `false` when the client closed its
    /// side or the connection failed.
    func discardIncoming() -> Bool {
        state.withLock { state in
            guard !state.isFinished else { return true }
            var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
            // A bounded number of reads: a client that keeps sending is read again on the next wake-up.
            for _ in 0..<64 {
                let count = withUnsafeMutableBytes(of: &buffer) {
                    recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
                }
                if count > 0 { continue }
                if count == 0 { return false }
                if errno == EINTR { continue }
                return errno == EAGAIN || errno == EWOULDBLOCK
            }
            return true
        }
    }
}
