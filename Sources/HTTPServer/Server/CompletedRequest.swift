/// What the server reports about a request once its response is queued: the input of metrics and request logs.
///
/// ```swift
/// configuration.requestObserver = { request in
///     print(request.method, request.route ?? "-", request.status, request.nanoseconds / 1000, "µs")
/// }
/// ```
public struct CompletedRequest: Sendable {
    /// The request method as sent (`GET`).
    public var method: String
    /// The request target as sent, still percent-encoded, with its query.
    public var rawTarget: String
    /// The pattern of the route that answered (`/movies/:id`); nil when no route did (404, 405, a malformed request),
    /// so that metrics stay bounded whatever paths clients send.
    public var route: String?
    /// The response status code.
    public var status: Int
    /// The body size; nil for an event stream.
    public var bytes: Int?
    /// From the request line to the response being queued.
    public var nanoseconds: UInt64
    /// The request's id (see ``Request/requestID``).
    public var requestID: String

    /// The target without its query (queries may carry tokens and stay out of logs).
    public var path: String { String(AccessLog.path(of: rawTarget)) }

    /// Creates a report.
    public init(
        method: String, rawTarget: String, route: String?, status: Int, bytes: Int?, nanoseconds: UInt64,
        requestID: String
    ) {
        self.method = method
        self.rawTarget = rawTarget
        self.route = route
        self.status = status
        self.bytes = bytes
        self.nanoseconds = nanoseconds
        self.requestID = requestID
    }
}
