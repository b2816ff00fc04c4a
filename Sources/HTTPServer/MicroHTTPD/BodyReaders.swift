internal import CMicroHTTPD
import Dispatch
import Glibc
import Primitives
import Synchronization

/// Large request bodies read on sockets the server takes over from libmicrohttpd, for body routes whose receiver asks
/// for large pieces (``RequestBodyReceiver/takesLargePieces``).
///
/// Why: libmicrohttpd 0.9.75 reads a body into its connection's memory pool, whose size is the daemon's
/// (`MHD_OPTION_CONNECTION_MEMORY_LIMIT`), and grows the read buffer of a body being received only when the handler
/// leaves it full (`try_grow_read_buffer`): a body arrives in pieces of a few KiB, each a `recvfrom`, a window update
/// sent back and a round of its state machine. A larger pool reads larger pieces, but every keep-alive connection then
/// keeps its whole pool resident (`MHD_pool_reset` zeroes all of it after each request, so even an mmap'd pool is
/// committed). A taken-over body is read in pieces of up to 256 KiB into one buffer, which the receiver gets without a
/// copy, on a thread of its own; idle connections keep their small pool. The figures for both:
/// Benchmarks/History/33-upload-throughput.md.
///
/// How: as for event streams (``AdoptedStreams``), the access handler duplicates the connection's socket once the
/// first piece of the body (which libmicrohttpd has read already, and which then was all it held) is handed over, and
/// answers `MHD_NO`: libmicrohttpd closes its descriptor without `shutdown()` (`MHD_USE_TURBO`) and frees the
/// connection. A reader thread receives the rest of the body, exactly its `Content-Length` (nothing of a request that
/// follows is read), sends the receiver's answer itself, and hands the socket back to libmicrohttpd
/// (`MHD_add_connection`) for the connection's next request, or closes it (HTTP/1.0, `Connection: close`).
final class BodyReaders: Sendable {
    /// The most bodies read this way at once; further ones are read by libmicrohttpd as before.
    static let limit = 64
    /// The largest piece read at once, and the size of each reader's buffer.
    static let pieceSize = 256 * 1024
    /// A body is taken over only when at least this much of it is still to come.
    static let threshold = 64 * 1024

    private struct State {
        /// The sockets being read, to shut down when the server stops.
        var sockets: Set<Int32> = []
        var isStopped = false
    }

    private let state = LockedValue(State())

    /// Claims a place for a body to be read on `socket` (a duplicate the reader owns from here); `false` when the
    /// readers are all busy or stopping, and the caller keeps the body with libmicrohttpd.
    func register(_ socket: Int32) -> Bool {
        state.withLock { state in
            guard !state.isStopped, state.sockets.count < Self.limit else { return false }
            state.sockets.insert(socket)
            return true
        }
    }

    /// Gives the socket up (before it is closed or handed back), so that ``stop()`` never shuts down a descriptor
    /// reused meanwhile.
    func unregister(_ socket: Int32) {
        state.withLock { _ = $0.sockets.remove(socket) }
    }

    /// Ends every read: each reader sees its client gone, tells its receiver so and closes its socket.
    func stop() {
        state.withLock { state in
            state.isStopped = true
            for socket in state.sockets { shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }
}

/// One body taken over from libmicrohttpd: everything its reader thread needs.
struct TakenBody {
    let socket: Int32
    let receiver: any RequestBodyReceiver
    /// Bytes of the body still to come.
    let remaining: Int
    let method: String
    let route: String?
    /// Read only through its constants (target, id, start) from here: libmicrohttpd releases its reference when it
    /// reports the request completed, which may be while the reader runs.
    let context: RequestContext
    /// Whether the connection goes on after the answer (HTTP/1.1 without `Connection: close`).
    let keepsAlive: Bool
}

extension Daemon {
    /// Takes the rest of the body over from libmicrohttpd when the receiver wants large pieces and enough of the
    /// body is still to come: `true` when the caller must answer `MHD_NO` (the socket is the reader's from here).
    func takeOver(
        _ receiver: any RequestBodyReceiver, _ connection: OpaquePointer, _ context: RequestContext, method: String
    ) -> Bool {
        guard receiver.takesLargePieces, let remaining = context.bodyRemaining, remaining >= BodyReaders.threshold,
            isAcceptingConnections.load(ordering: .sequentiallyConsistent)
        else { return false }
        let socket = screenplay_mhd_connection_socket(connection)
        guard socket >= 0 else { return false }
        let duplicate = fcntl(socket, F_DUPFD_CLOEXEC, 0)
        guard duplicate >= 0 else { return false }
        guard bodyReaders.register(duplicate) else {
            close(duplicate)
            return false
        }
        let keepsAlive = !context.isHTTP10 && !Daemon.asksToClose(connection)
        context.receiver = nil
        // Counted until the answer is sent, so that a stop waits for it (libmicrohttpd's count ends with `MHD_NO`).
        requestsInFlight.add(1, ordering: .sequentiallyConsistent)
        // `Transfer` (unchecked Sendable): the receiver and the context go to the reader thread, and this thread never
        // touches the receiver again (it is no longer the context's); libmicrohttpd only releases the context, whose
        // constants are all the reader reads of it. Once a body, not a piece: no receipt to take.
        let body = Transfer(
            TakenBody(
                socket: duplicate, receiver: receiver, remaining: remaining, method: method,
                route: context.receiverRoute, context: context, keepsAlive: keepsAlive))
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        defer { pthread_attr_destroy(&attributes) }
        let start = Unmanaged.passRetained(BodyReaderStart(daemon: self, body: body)).toOpaque()
        let previousMask = SignalMask.blockTermination()
        defer { SignalMask.restore(previousMask) }
        let status = pthread_create(
            &thread, &attributes,
            { start in
                let start = Unmanaged<BodyReaderStart>.fromOpaque(start!).takeRetainedValue()
                start.daemon.read(start.body.value)
                return nil
            }, start)
        guard status == 0 else {
            // No thread: the body is the connection's to lose; the receiver learns it as a client leaving.
            Unmanaged<BodyReaderStart>.fromOpaque(start).release()
            ServerLog.error("cannot start a body reader: \(String(cString: strerror(status)))")
            bodyReaders.unregister(duplicate)
            close(duplicate)
            receiver.abandon()
            requestsInFlight.subtract(1, ordering: .releasing)
            return true
        }
        return true
    }

    /// Whether the request's `Connection` header names `close`.
    private static func asksToClose(_ connection: OpaquePointer) -> Bool {
        guard let value = header("Connection", of: connection) else { return false }
        return value.split(separator: ",").contains {
            $0.lowercased().split(separator: " ", omittingEmptySubsequences: true) == ["close"]
        }
    }

    /// The reader thread: the rest of the body into the receiver, then its answer, then the socket back to
    /// libmicrohttpd (or closed).
    fileprivate func read(_ body: TakenBody) {
        defer { requestsInFlight.subtract(1, ordering: .releasing) }
        let socket = body.socket
        // Blocking from here, with the connection's idle timeout: the reader has nothing else to do meanwhile.
        let flags = fcntl(socket, F_GETFL)
        if flags >= 0 && flags & O_NONBLOCK != 0 { _ = fcntl(socket, F_SETFL, flags & ~O_NONBLOCK) }
        Daemon.setTimeout(socket, SO_RCVTIMEO, configuration.idleTimeout)
        Daemon.setTimeout(socket, SO_SNDTIMEO, configuration.idleTimeout)
        // One buffer for the whole body, each piece received into it in place and lent to the receiver for its call:
        // no allocation and no copy a piece. Invariant: this function alone owns the buffer; `recv` writes at most
        // `pieceSize` bytes into it, the receiver reads only the `count` bytes received and only during its
        // `receive` call, and the defer frees it on every way out. Receipt: DHAT's blocks for a 16 and an 80 MiB
        // PATCH, Benchmarks/History/33-upload-throughput.md.
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: BodyReaders.pieceSize, alignment: 16)
        defer { buffer.deallocate() }
        var remaining = body.remaining
        var refused = false
        var discarded = 0
        while remaining > 0 {
            let count = recv(socket, buffer, min(BodyReaders.pieceSize, remaining), 0)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                // The client went (or stayed silent past the idle timeout, or the server is stopping).
                body.receiver.abandon()
                end(socket, handBack: false)
                return
            }
            remaining -= count
            if refused {
                discarded += count
                // As with libmicrohttpd: a sender that keeps going past the allowance loses the connection.
                if discarded > Daemon.discardAllowance {
                    body.receiver.abandon()
                    end(socket, handBack: false)
                    return
                }
            } else if !body.receiver.receive(UnsafeRawBufferPointer(start: buffer, count: count)) {
                refused = true
            }
        }
        var response = body.receiver.finish()
        response.routePattern = body.route
        let (bytes, bodySize) = Daemon.completeResponse(&response, method: body.method, keepsAlive: body.keepsAlive)
        let sent = bytes.withUnsafeBytes { Daemon.sendAll(socket, $0) }
        record(response, method: body.method, context: body.context, bodySize: bodySize)
        end(socket, handBack: sent && body.keepsAlive && !response.closesConnection)
    }

    /// Lets the socket go: back to libmicrohttpd for the connection's next request, or closed.
    private func end(_ socket: Int32, handBack: Bool) {
        bodyReaders.unregister(socket)
        guard handBack else {
            close(socket)
            return
        }
        let flags = fcntl(socket, F_GETFL)
        if flags >= 0 { _ = fcntl(socket, F_SETFL, flags | O_NONBLOCK) }
        Daemon.setTimeout(socket, SO_RCVTIMEO, .zero)
        Daemon.setTimeout(socket, SO_SNDTIMEO, .zero)
        // libmicrohttpd closes the socket itself when it cannot take it, and after the daemon has stopped nothing is
        // handed to it (see `addConnection`).
        if !addConnection(socket) { close(socket) }
    }

    private static func setTimeout(_ socket: Int32, _ option: Int32, _ duration: Duration) {
        let seconds = wholeSeconds(duration)
        var value = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends every byte, blocking; whether it all went.
    private static func sendAll(_ socket: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var off: Int32 = 0
        // libmicrohttpd may have left the socket corked from an earlier response on the connection.
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_CORK, &off, socklen_t(MemoryLayout<Int32>.size))
        var done = 0
        while done < bytes.count {
            let count = send(socket, base + done, bytes.count - done, Int32(MSG_NOSIGNAL))
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            done += count
        }
        return true
    }

    /// The whole answer as libmicrohttpd would send it (status line, `Date`, the headers, `Content-Length` unless the
    /// status has no body, `Connection: close` when the connection ends), and the body's size. A body other than
    /// bytes cannot be sent from here: it becomes a 500, and the connection closes.
    static func completeResponse(_ response: inout Response, method: String, keepsAlive: Bool) -> ([UInt8], Int?) {
        let bytes: [UInt8]
        if response.pending == nil, case .bytes(let body) = response.body {
            bytes = body
        } else {
            ServerLog.error("\(method): a body route that takes large pieces answered with a body other than bytes")
            response = .error(.internalServerError, message: "Something went wrong on our side.")
            response.headers["Connection"] = "close"
            bytes = response.bytesBody
        }
        let code = response.status.code
        let hasBody = !(code < 200 || code == 204 || code == 304)
        var head = "HTTP/1.1 \(code) \(response.status.reasonPhrase)\r\n"
        head += "Date: \(HTTPDate.format(secondsSince1970: time(nil)))\r\n"
        if !keepsAlive && !response.closesConnection { head += "Connection: close\r\n" }
        for (name, value) in response.headers where !isBodyFraming(name) {
            guard !name.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 58 }),
                !value.utf8.contains(where: { $0 == 13 || $0 == 10 })
            else {
                ServerLog.error("\(method): header \(name) holds a line break; left out")
                continue
            }
            head += "\(name): \(value)\r\n"
        }
        if hasBody { head += "Content-Length: \(bytes.count)\r\n" }
        head += "\r\n"
        return (Array(head.utf8) + (hasBody && method != "HEAD" ? bytes : []), hasBody ? bytes.count : 0)
    }
}

extension Response {
    /// Whether the response says the connection ends after it (`Connection: close`).
    fileprivate var closesConnection: Bool {
        headers["Connection"].map { $0.lowercased().contains("close") } ?? false
    }

    fileprivate var bytesBody: [UInt8] {
        if case .bytes(let bytes) = body { return bytes }
        return []
    }
}

/// What a reader thread starts from (passed as its one pointer).
private final class BodyReaderStart: Sendable {
    let daemon: Daemon
    let body: Transfer<TakenBody>

    init(daemon: Daemon, body: Transfer<TakenBody>) {
        self.daemon = daemon
        self.body = body
    }
}
