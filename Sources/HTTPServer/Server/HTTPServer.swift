import Glibc
import Primitives
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd that answers from a ``Router``.
///
/// I/O runs on ``ServerConfiguration/threadCount`` threads, each with its own epoll set; handlers
/// run on those threads. Idle event streams hold no thread. `SIGPIPE` is ignored once the server
/// starts, so a client that hangs up never kills the process, and the soft limit on open files is
/// raised (up to the hard limit) to fit ``ServerConfiguration/connectionLimit`` connections and as many event streams.
///
/// ```swift
/// let router = Router()
/// router.get("/healthz") { _ in .text("ok") }
/// let server = HTTPServer(configuration: ServerConfiguration(port: 8080), router: router)
/// HTTPServer.blockTerminationSignals()   // first thing in main, before any thread starts
/// try server.start()
/// HTTPServer.waitForTerminationSignal()
/// server.stop()
/// ```
public final class HTTPServer: Sendable {
    /// The configuration the server was created with.
    public let configuration: ServerConfiguration
    private let router: Router
    private let daemon = LockedValue<Daemon?>(nil)
    private let boundPort = Atomic<Int>(0)

    /// Creates a stopped server; the router's routes are fixed when it starts.
    public init(configuration: ServerConfiguration = ServerConfiguration(), router: Router) {
        self.configuration = configuration
        self.router = router
    }

    /// Binds the port and starts serving.
    ///
    /// - Throws: ``ServerError`` with a message that says what failed, such as
    ///   "cannot listen on 127.0.0.1:8080: Address already in use".
    public func start() throws {
        signal(SIGPIPE, SIG_IGN)
        // Connections, and as many event streams.
        HTTPServer.raiseDescriptorLimit(toAtLeast: 2 * configuration.connectionLimit + 64)
        try daemon.withLock { daemon in
            guard daemon == nil else { throw ServerError("HTTPServer.start() was called twice; start a server once") }
            let started = try Daemon(configuration: configuration, routes: router.table())
            boundPort.store(started.port, ordering: .releasing)
            daemon = started
        }
    }

    /// The port the server listens on: the configured one, or the one picked for port 0. 0 before
    /// ``start()``.
    public var port: Int {
        boundPort.load(ordering: .acquiring)
    }

    /// Stops gracefully: turns new connections away, ends every event stream (their close handlers
    /// run), lets requests in flight finish for up to five seconds, then stops the I/O threads.
    /// Returns when the server is stopped; does nothing if it is not running.
    public func stop() {
        let running = daemon.withLock { daemon in
            defer { daemon = nil }
            return daemon
        }
        running?.stop()
    }

    /// The `send` calls made on adopted event streams' sockets so far; 0 when stopped (for tests).
    var eventStreamSendCalls: Int {
        daemon.withLock { $0?.adoptedStreams.sendCalls.load(ordering: .relaxed) ?? 0 }
    }

    /// The batching event streams' writes sent by their writer, each the first of a burst; 0 when stopped (tests).
    var eventStreamWriterSends: Int {
        daemon.withLock { $0?.adoptedStreams.writerSends.load(ordering: .relaxed) ?? 0 }
    }

    deinit {
        stop()
    }

    /// Each connection holds a descriptor, and a common default soft limit is 1,024: raise it
    /// towards the hard limit so that `connectionLimit` is reachable.
    private static func raiseDescriptorLimit(toAtLeast wanted: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(wanted) else { return }
        limit.rlim_cur = min(limit.rlim_max, rlim_t(wanted))
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
