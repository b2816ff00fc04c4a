/// How an ``Application`` is observed and whether development features are on; every property has a default.
///
/// ```swift
/// var operations = OperationsConfiguration()
/// operations.logger = Logger(level: .info, format: .json)
/// operations.metrics = .port(9100)      // /metrics on its own port, off the public one
/// operations.isDevelopment = true       // reload templates and stylesheets, detailed error pages
/// ```
public struct OperationsConfiguration: Sendable {
    /// Where `/metrics` is served.
    public enum MetricsEndpoint: Sendable, Equatable {
        /// Not at all.
        case off
        /// On the application's own port (the default).
        case main
        /// On a server of its own at this port (0 picks a free one; see ``Application/metricsPort``), on the same
        /// host, so that the public port does not show it.
        case port(Int)
    }

    /// Where `/metrics` is served; default ``MetricsEndpoint/main``.
    public var metrics: MetricsEndpoint
    /// The log for requests (when the server configuration's `accessLog` is on) and session lifecycle events.
    public var logger: Logger
    /// Development mode: watch `Templates/` and `Public/` and update open pages, and show errors in detail.
    /// Never turn it on in production: error pages then show internals.
    public var isDevelopment: Bool
    /// How often development mode looks for changed files.
    public var watchInterval: Duration
    /// Development mode only: how long every action post, input post and screen event is held back, to try typing
    /// and pending states as a distant user would (`--dev-latency MS`). Ignored outside development mode.
    public var developmentLatency: Duration?

    /// Creates a configuration; every argument has a default.
    public init(
        metrics: MetricsEndpoint = .main, logger: Logger = Logger(), isDevelopment: Bool = false,
        watchInterval: Duration = .milliseconds(300), developmentLatency: Duration? = nil
    ) {
        self.developmentLatency = developmentLatency
        self.metrics = metrics
        self.logger = logger
        self.isDevelopment = isDevelopment
        self.watchInterval = watchInterval
    }
}
