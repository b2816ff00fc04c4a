internal import FoundationEssentials
internal import HTTPServer
import Primitives
internal import Reactive
internal import ViewKit

/// Health and metrics: what `/readyz` checks, the `/metrics` exposition (on the application's port or on a server of
/// its own), and the request log line.
///
/// Contract: `/readyz` runs every check each time it is asked, never caching an answer; the metrics server, when
/// there is one, runs between ``startMetricsServer(host:port:)`` and ``stopMetricsServer()`` and serves only
/// `/metrics`. Thread-safe.
final class Monitoring: Sendable {
    private let metrics: Metrics
    private let logger: Logger
    /// Whose templates `/readyz` checks.
    private let router: ScreenRouter
    private let readinessChecks = Locked<[(name: String, check: @Sendable () throws -> Void)]>([])
    private let metricsServer: Locked<HTTPServer?> = Locked(nil)

    init(metrics: Metrics, logger: Logger, router: ScreenRouter) {
        self.metrics = metrics
        self.logger = logger
        self.router = router
    }

    /// Adds a check `/readyz` runs: it throws while the app cannot serve.
    func addReadinessCheck(_ name: String, _ check: @escaping @Sendable () throws -> Void) {
        readinessChecks.withLock { $0.append((name, check)) }
    }

    /// 200 `ready` when the templates are loaded and every check passes; 503 naming the failed checks otherwise.
    func readiness() -> Response {
        var failed: [String] = []
        if (try? router.templates.template(named: "layout")) == nil {
            failed.append("templates")
        }
        for (name, check) in readinessChecks.withLock({ $0 }) {
            do { try check() } catch {
                failed.append(name)
                logger.log(.warning, "readiness.failed", ["check": name, "error": "\(error)"])
            }
        }
        var response =
            failed.isEmpty
            ? Response.text("ready\n")
            : Response.text("not ready: \(failed.joined(separator: ", "))\n", status: .serviceUnavailable)
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// Starts a server of one thread that serves only `/metrics`, on `host` and `port`.
    func startMetricsServer(host: String, port: Int) throws {
        let metricsRouter = Router()
        metricsRouter.get("/metrics") { [metrics] _ in Self.metricsResponse(metrics) }
        var configuration = ServerConfiguration(host: host, port: port, threadCount: 1)
        configuration.connectionLimit = 64
        let server = HTTPServer(configuration: configuration, router: metricsRouter)
        try server.start()
        metricsServer.withLock { $0 = server }
    }

    /// Stops the metrics server, if one runs.
    func stopMetricsServer() {
        let server = metricsServer.withLock { server in
            defer { server = nil }
            return server
        }
        server?.stop()
    }

    /// The port the metrics server listens on; 0 when none runs.
    var metricsPort: Int { metricsServer.withLock { $0?.port ?? 0 } }

    /// The `/metrics` answer: the Prometheus text exposition, never cached.
    static func metricsResponse(_ metrics: Metrics) -> Response {
        var response = Response.text(metrics.exposition())
        response.headers["Content-Type"] = "text/plain; version=0.0.4; charset=utf-8"
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// What the server calls with each completed request: it counts it into `metrics` (when given) and writes its
    /// line (when `logsRequests`). With neither there is no observer, so a request costs neither the clock reads nor
    /// the counters' lock.
    static func requestObserver(
        metrics: Metrics?, logsRequests: Bool, logger: Logger
    ) -> (@Sendable (CompletedRequest) -> Void)? {
        guard metrics != nil || logsRequests else { return nil }
        return { request in
            if let metrics {
                metrics.recordRequest(
                    route: request.route, method: request.method, status: request.status,
                    nanoseconds: request.nanoseconds)
            }
            if logsRequests { logRequest(request, to: logger) }
        }
    }

    /// Writes a completed request's line (an error level for a 5xx), with its request id.
    private static func logRequest(_ request: CompletedRequest, to logger: Logger) {
        guard logger.isEnabled(.info) else { return }
        let level: Logger.Level = request.status >= 500 ? .error : .info
        logger.log(
            level, "request",
            [
                "method": request.method, "path": request.path, "route": request.route ?? "-",
                "status": String(request.status), "bytes": request.bytes.map(String.init) ?? "-",
                "us": String(request.nanoseconds / 1000), "request_id": request.requestID,
            ])
    }
}
