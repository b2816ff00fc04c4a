internal import Foundation
internal import HTTPServer
internal import Reactive
internal import ViewKit

/// `/healthz`, `/readyz`, `/metrics` and the request log.
extension Application {
    static func logRequest(_ request: CompletedRequest, to logger: Logger) {
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

    static func metricsResponse(_ metrics: Metrics) -> Response {
        var response = Response.text(metrics.exposition())
        response.headers["Content-Type"] = "text/plain; version=0.0.4; charset=utf-8"
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// Adds a check `/readyz` runs: it throws while the app cannot serve (a store that cannot be read, say).
    ///
    /// ```swift
    /// app.addReadinessCheck("store") { _ = try store.movie(id: 1) }
    /// ```
    public func addReadinessCheck(_ name: String, _ check: @escaping @Sendable () throws -> Void) {
        readinessChecks.withLock { $0.append((name, check)) }
    }

    /// 200 `ready` when the templates are loaded and every check passes; 503 naming the failed checks otherwise.
    func readiness() -> Response {
        var failed: [String] = []
        if (try? assembly.withLock({ try $0.templates.template(named: "layout") })) == nil {
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
}
