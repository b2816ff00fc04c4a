internal import CMicroHTTPD
import Dispatch
import Glibc
import Primitives
import Synchronization

/// One running libmicrohttpd daemon: an epoll loop per I/O thread, answering from a route table.
///
/// libmicrohttpd calls back into Swift through C function pointers that capture nothing; the
/// daemon reaches them as the unretained `cls` context, alive because ``HTTPServer`` holds it
/// until ``stop()`` returns.
final class Daemon: Sendable {
    let configuration: ServerConfiguration
    let routes: RouteTable
    let streams = StreamRegistry()
    /// Event streams sent on sockets taken from libmicrohttpd (see ``AdoptedStreams``).
    let adoptedStreams: AdoptedStreams
    /// Large bodies read on sockets taken from libmicrohttpd (see ``BodyReaders``).
    let bodyReaders = BodyReaders()
    /// Requests between their request line and their completion.
    let requestsInFlight = Atomic<Int>(0)
    /// Deferred responses not answered yet, each holding its connection suspended: ``stop()`` answers them.
    let pendingResponses = LockedValue<[ObjectIdentifier: PendingResponse]>([:])
    /// Cleared when ``stop()`` begins; from then on ``acceptPolicy`` turns every new connection away.
    let isAcceptingConnections = Atomic<Bool>(true)
    let port: Int

    private struct Running {
        var daemon: OpaquePointer
        var heartbeat: HeartbeatTimer
    }

    private let running = LockedValue<Running?>(nil)

    init(configuration: ServerConfiguration, routes: RouteTable) throws {
        self.configuration = configuration
        self.routes = routes
        adoptedStreams = try AdoptedStreams(
            registry: streams, limit: configuration.connectionLimit, burstGap: configuration.eventStreamBurstGap)
        let listenSocket = try ListenSocket(host: configuration.host, port: configuration.port)
        self.port = listenSocket.port
        // libmicrohttpd gets a duplicate and owns it from here: when it fails to start it closes the socket it was
        // given on some paths (a thread or mutex it cannot create) and not on others, so closing that descriptor
        // again could close whatever another thread had opened under its number meanwhile. The original stays
        // ours, which also keeps the socket's identity for telling whether the duplicate is still open.
        let handedOver = fcntl(listenSocket.descriptor, F_DUPFD_CLOEXEC, 0)
        guard handedOver >= 0 else {
            adoptedStreams.stop()
            close(listenSocket.descriptor)
            let reason = ListenSocket.errorText()
            throw ServerError("cannot start the HTTP server on \(configuration.host):\(port): \(reason)")
        }
        do {
            try running.withLock { running in
                // Built inside the lock's closure from Sendable inputs only, so the pointer is never shared.
                let daemon = try Daemon.startMicroHTTPD(
                    configuration: configuration, listenDescriptor: handedOver,
                    context: Unmanaged.passUnretained(self).toOpaque())
                let heartbeat = HeartbeatTimer(interval: configuration.heartbeatInterval, registry: streams)
                running = Running(daemon: daemon, heartbeat: heartbeat)
            }
            close(listenSocket.descriptor)
        } catch {
            adoptedStreams.stop()
            if ListenSocket.isSameSocket(handedOver, as: listenSocket.descriptor) { close(handedOver) }
            close(listenSocket.descriptor)
            throw ServerError("cannot start the HTTP server on \(configuration.host):\(port): \(error)")
        }
    }

    deinit {
        stop()
    }

    private static func startMicroHTTPD(
        configuration: ServerConfiguration, listenDescriptor: Int32, context: UnsafeMutableRawPointer
    ) throws -> OpaquePointer {
        // A C door, not a trick: `MHD_OPTION_ARRAY` carries a callback as the `intptr_t` of its item, as C casts a
        // function pointer there. Sound for the `@convention(c)` functions passed below, which are one word.
        func function<F>(_ callback: F) -> Int { unsafeBitCast(callback, to: Int.self) }
        let handlerCount = max(1, configuration.threadCount)
        // Request line, headers and read buffer share this pool; the rest is room for MHD's own use.
        let memoryLimit = configuration.maxHeaderSize + 4096
        var options: [MHD_OptionItem] = [
            MHD_OptionItem(option: .LISTEN_SOCKET, value: Int(listenDescriptor), ptr_value: nil),
            MHD_OptionItem(
                option: .CONNECTION_LIMIT, value: max(handlerCount, configuration.connectionLimit),
                ptr_value: nil),
            MHD_OptionItem(
                option: .CONNECTION_TIMEOUT,
                value: Daemon.wholeSeconds(configuration.idleTimeout), ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: memoryLimit, ptr_value: nil),
            MHD_OptionItem(
                option: .URI_LOG_CALLBACK, value: function(Daemon.requestBegan), ptr_value: context),
            MHD_OptionItem(
                option: .NOTIFY_COMPLETED, value: function(Daemon.requestCompleted), ptr_value: context),
            // Level 1: HTTP/1.1 without Host, and spaces in the request target, get 400.
            MHD_OptionItem(option: .STRICT_FOR_CLIENT, value: 1, ptr_value: nil),
            // SIGPIPE is ignored process-wide (see `HTTPServer.start`), which lets MHD use sendfile.
            MHD_OptionItem(option: .SIGPIPE_HANDLED_BY_APP, value: 1, ptr_value: nil),
        ]
        if handlerCount > 1 {
            options.append(MHD_OptionItem(option: .THREAD_POOL_SIZE, value: handlerCount, ptr_value: nil))
        }
        options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
        // Turbo: besides trying reads and writes before asking epoll, libmicrohttpd then closes a connection without
        // `shutdown()`, which lets an adopted event stream keep its socket (see `AdoptedStreams`).
        let flags =
            MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_TURBO.rawValue
        return try options.withUnsafeMutableBufferPointer { options in
            // MHD's threads inherit this thread's signal mask: keep SIGINT/SIGTERM away from them so
            // `sigwait` in `waitForTerminationSignal` receives them.
            let previousMask = SignalMask.blockTermination()
            defer { SignalMask.restore(previousMask) }
            return try check(
                screenplay_mhd_start(
                    flags, 0, Daemon.acceptPolicy, context, Daemon.accessHandler, context, options.baseAddress),
                "MHD_start_daemon")
        }
    }

    /// MHD counts timeouts in whole seconds: round up, so a short timeout never becomes "never"
    /// (0), unless it was zero to begin with.
    static func wholeSeconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        guard seconds > 0 || attoseconds > 0 else { return 0 }
        return Int(seconds) + (attoseconds > 0 ? 1 : 0)
    }

    /// Stops gracefully: turn new connections away, end every event stream, let requests in flight
    /// finish (up to a few seconds; deferred responses still unanswered then get `503`), then stop the daemon, which
    /// closes the listening socket. MHD aborts if stopped with suspended connections, hence the order. Idempotent.
    ///
    /// New connections are turned away by ``acceptPolicy``, not by `MHD_quiesce_daemon`: with a
    /// thread pool on epoll, libmicrohttpd 0.9.75's quiesce takes the listening socket out of each
    /// worker's epoll set from this thread while that worker, seeing the quiesce flag, may be taking
    /// it out too; whichever comes second gets `ENOENT`, and when that is the quiesce (daemon.c:5531)
    /// or the worker's at-the-limit branch (daemon.c:4976), MHD aborts the process ("Failed to remove
    /// listen FD from epoll set"). Without quiesce only each worker edits its own epoll set.
    func stop() {
        guard
            let running = running.withLock({ running in
                defer { running = nil }; return running
            })
        else { return }
        running.heartbeat.cancel()
        isAcceptingConnections.store(false, ordering: .sequentiallyConsistent)
        streams.closeAll()
        bodyReaders.stop()
        if !waitForRequests(upTo: .seconds(5)) {
            // MHD aborts when stopped with a suspended connection: answer what is still deferred, and let it go out.
            let unanswered = pendingResponses.withLock { Array($0.values) }
            for pending in unanswered {
                pending.respond(.error(.serviceUnavailable, message: Daemon.stoppingMessage))
            }
            if !unanswered.isEmpty { _ = waitForRequests(upTo: .seconds(1)) }
            if streams.count > 0 { ServerLog.error("stopping with \(streams.count) event streams still open") }
        }
        MHD_stop_daemon(running.daemon)
        adoptedStreams.stop()
    }

    /// Hands a socket (a connection between requests) to libmicrohttpd, as if just accepted; `false`, the socket
    /// left to the caller, once the stop has begun. libmicrohttpd takes it from any thread; the lock keeps the daemon
    /// from stopping meanwhile.
    func addConnection(_ socket: Int32) -> Bool {
        running.withLock { running in
            guard let running, isAcceptingConnections.load(ordering: .sequentiallyConsistent) else { return false }
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let named = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(socket, $0, &length) }
            }
            guard named == 0 else { return false }
            // On failure libmicrohttpd has closed the socket already: it is not the caller's to close again.
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    MHD_add_connection(running.daemon, socket, $0, length)
                }
            }
            return true
        }
    }

    /// What a deferred request still waiting, or deferred once the stop has begun, is answered (with `503`).
    static let stoppingMessage = "The server is stopping; try again."

    /// Waits until no event stream is open and no request in flight, up to `limit`; whether that happened.
    private func waitForRequests(upTo limit: Duration) -> Bool {
        let deadline = ContinuousClock.now + limit
        while streams.count > 0 || requestsInFlight.load(ordering: .sequentiallyConsistent) > 0 {
            if ContinuousClock.now > deadline { return false }
            usleep(2_000)
        }
        return true
    }
}

/// Saves and changes the calling thread's signal mask.
enum SignalMask {
    static func blockTermination() -> sigset_t {
        var set = sigset_t()
        var previous = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &set, &previous)
        return previous
    }

    static func restore(_ mask: sigset_t) {
        var mask = mask
        pthread_sigmask(SIG_SETMASK, &mask, nil)
    }
}
