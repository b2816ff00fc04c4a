/// An error that knows its HTTP status: thrown from a handler, it renders as that status with
/// `message` on a small HTML error page.
///
/// Any other error a handler throws becomes a 500 whose page says nothing about the error; the
/// error itself goes to the log.
///
/// ```swift
/// guard let movie = store.movie(id: id) else { throw HTTPError(.notFound, message: "No such movie.") }
/// ```
public struct HTTPError: Error, Sendable, CustomStringConvertible {
    /// The status the response carries.
    public var status: HTTPStatus
    /// A message safe to show to the client; `nil` shows the reason phrase.
    public var message: String?
    /// Extra headers for the response, such as `Allow` on a 405.
    public var headers: HTTPHeaders

    /// Creates an error that renders as `status` with an optional client-safe `message`.
    public init(_ status: HTTPStatus, message: String? = nil) {
        self.status = status
        self.message = message
        self.headers = [:]
    }

    /// Creates an error that renders as `status`, adding `headers` to the response.
    public init(_ status: HTTPStatus, message: String? = nil, headers: HTTPHeaders) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    /// "HTTPError(404 Not Found: No such movie.)".
    public var description: String {
        "HTTPError(\(status)\(message.map { ": \($0)" } ?? ""))"
    }

    /// The response this error renders as.
    public var response: Response {
        var response = Response.error(status, message: message ?? status.reasonPhrase)
        for (name, value) in headers { response.headers[name] = value }
        return response
    }
}
