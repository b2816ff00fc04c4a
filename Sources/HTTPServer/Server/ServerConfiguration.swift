import Glibc

/// How an ``HTTPServer`` listens and what it allows; every property has a default.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.port = 0          // any free port; read it from `server.port`
/// configuration.maxBodySize = 1 << 20
/// ```
public struct ServerConfiguration: Sendable {
    /// The address to listen on: an IP address or a host name (`"127.0.0.1"`, `"::"`, `"localhost"`).
    public var host: String
    /// The TCP port; 0 picks a free one (see ``HTTPServer/port``).
    public var port: Int
    /// I/O threads, each with its own epoll set; handlers run on them. Defaults to the core count.
    public var threadCount: Int
    /// The largest request body accepted; larger ones get 413 (at once when `Content-Length` says so).
    public var maxBodySize: Int
    /// The room for one request's line and headers; larger ones get 431 (or 414 for a long URL).
    public var maxHeaderSize: Int
    /// Open connections at most; more wait to be accepted. Event streams leave their connection once answered (they
    /// are sent on the socket directly) and have a limit of their own of the same size: more are answered `503`.
    public var connectionLimit: Int
    /// How long an ordinary connection may sit idle before it is closed, in whole seconds (rounded
    /// up); `.zero` keeps idle connections open. Event streams are exempt.
    public var idleTimeout: Duration
    /// Whether to write one line per request (method, path, status, bytes, microseconds) to stderr.
    public var accessLog: Bool
    /// How often every open event stream gets a `: hb` comment, which also detects vanished clients.
    public var heartbeatInterval: Duration
    /// Unsent bytes one event stream may hold before it is closed as a slow reader.
    public var maxStreamBuffer: Int
    /// Called on the I/O thread once each response is queued, for metrics and structured logs; keep it cheap
    /// (count behind an atomic or a short lock). `nil` (the default) costs nothing.
    public var requestObserver: (@Sendable (CompletedRequest) -> Void)?
    /// Writes to a batching event stream closer together than this are one burst, whose writes after the first the
    /// streams' thread sends (``EventStream/isBatching``). Not public: tests widen it so that a burst does not depend
    /// on how fast the machine runs them.
    var eventStreamBurstGap: Duration = .milliseconds(1)

    /// Creates a configuration; every argument has a default.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, threadCount: Int = ServerConfiguration.coreCount,
        maxBodySize: Int = 64 * 1024, maxHeaderSize: Int = 8 * 1024, connectionLimit: Int = 10_000,
        idleTimeout: Duration = .seconds(30), accessLog: Bool = false, heartbeatInterval: Duration = .seconds(15),
        maxStreamBuffer: Int = 256 * 1024
    ) {
        self.host = host
        self.port = port
        self.threadCount = threadCount
        self.maxBodySize = maxBodySize
        self.maxHeaderSize = maxHeaderSize
        self.connectionLimit = connectionLimit
        self.idleTimeout = idleTimeout
        self.accessLog = accessLog
        self.heartbeatInterval = heartbeatInterval
        self.maxStreamBuffer = maxStreamBuffer
    }

    /// The number of online cores, at least 1.
    public static var coreCount: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }
}
