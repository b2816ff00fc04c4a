import FoundationEssentials

/// An HTTP response: a status, headers and a body of bytes, a file or an event stream.
///
/// `Content-Length` and `Date` are added by the server; set `Content-Type` yourself or use a helper.
///
/// ```swift
/// return .html("<h1>Hello</h1>")
/// return .json(movie, status: .created)
/// return .redirect(to: "/movies/42")
/// ```
public struct Response: Sendable {
    /// What a response carries after its headers.
    public enum Body: Sendable {
        /// Bytes in memory.
        case bytes([UInt8])
        /// The contents of the regular file at `path`, read when the response is sent (zero-copy);
        /// a file that cannot be opened then becomes a 404.
        case file(path: String)
        /// A server-sent event stream that stays open until it or the client closes it.
        case stream(EventStream)
        /// A byte range of a regular file (a `Range` answer), read when the response is sent (zero-copy); a file that
        /// cannot be opened then becomes a 404.
        // One reference, as every other case carries at most one word or a string: the enum keeps the size it had.
        case fileRange(FileRange)
        /// A body written as it is produced, in chunks (``BodyProducer``), never whole in memory.
        case produced(BodyProducer)
    }

    /// The status line's status.
    public var status: HTTPStatus
    /// The response headers.
    public var headers: HTTPHeaders
    /// The body.
    public var body: Body
    /// The pattern of the route that answered (`/movies/:id`), set by the router for metrics and logs.
    var routePattern: String?
    /// Set for a response given later (``deferred(_:)``): the server waits for it instead of sending this one.
    var pending: PendingResponse?

    /// Creates a response with a byte body.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = .bytes(body)
    }

    /// Creates a response with any kind of body.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: Body) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// An HTML page (`text/html; charset=utf-8`).
    public static func html(_ text: String, status: HTTPStatus = .ok) -> Response {
        html(bytes: Array(text.utf8), status: status)
    }

    /// An HTML page already rendered to UTF-8 bytes.
    public static func html(bytes: [UInt8], status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: bytes)
    }

    /// `value` encoded as JSON (`application/json`); an encoding failure is logged and becomes a 500.
    public static func json<T: Encodable>(_ value: T, status: HTTPStatus = .ok) -> Response {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let data = try encoder.encode(value)
            return Response(status: status, headers: ["Content-Type": "application/json"], body: Array(data))
        } catch {
            ServerLog.error("could not encode \(T.self) as JSON: \(error)")
            return .error(.internalServerError, message: HTTPStatus.internalServerError.reasonPhrase)
        }
    }

    /// Plain text (`text/plain; charset=utf-8`).
    public static func text(_ text: String, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(text.utf8))
    }

    /// A 303 See Other to `location`: the answer to a form post, so reloading does not post again.
    public static func redirect(to location: String) -> Response {
        Response(status: .seeOther, headers: ["Location": location])
    }

    /// A 204 No Content.
    public static var noContent: Response {
        Response(status: .noContent)
    }

    /// A server-sent event stream (`text/event-stream`, never cached, chunked) that stays open
    /// until `stream` or the client closes it. Events sent before the response goes out are
    /// delivered first.
    public static func eventStream(_ stream: EventStream) -> Response {
        Response(
            status: .ok,
            headers: [
                "Content-Type": "text/event-stream", "Cache-Control": "no-store",
                // Keeps proxies such as nginx from holding events back.
                "X-Accel-Buffering": "no",
            ],
            body: .stream(stream))
    }

    /// A small HTML error page showing `status` and `message`, both escaped.
    public static func error(_ status: HTTPStatus, message: String) -> Response {
        let title = HTMLEscaping.escape("\(status.code) \(status.reasonPhrase)")
        let page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(title)</title></head>
            <body><h1>\(title)</h1><p>\(HTMLEscaping.escape(message))</p></body></html>

            """
        var response = Response.html(page, status: status)
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}

/// Escaping for text placed into HTML, for error pages (this module's and the framework's development pages).
package enum HTMLEscaping {
    package static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}

/// Bytes `length` long from `offset` of the regular file at `path`: a ``Response/Body/fileRange(_:)`` body.
public final class FileRange: Sendable {
    /// The file's path.
    public let path: String
    /// Where the bytes start in the file.
    public let offset: Int
    /// How many bytes.
    public let length: Int

    /// The bytes `length` long from `offset` of the file at `path`.
    public init(path: String, offset: Int, length: Int) {
        self.path = path
        self.offset = offset
        self.length = length
    }
}
