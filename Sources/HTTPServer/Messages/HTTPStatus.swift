/// An HTTP response status: a code and its reason phrase.
///
/// Integer literals work where a status is expected: `Response(status: 418)`.
public struct HTTPStatus: Hashable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The three-digit status code.
    public let code: Int
    /// The reason phrase, for error pages and logs.
    public let reasonPhrase: String

    /// Creates a status from a code, with the standard reason phrase when the code is known.
    public init(code: Int, reasonPhrase: String? = nil) {
        self.code = code
        self.reasonPhrase = reasonPhrase ?? HTTPStatus.standardPhrases[code] ?? "Status \(code)"
    }

    /// Creates a status from an integer literal.
    public init(integerLiteral value: Int) {
        self.init(code: value)
    }

    /// Statuses compare by code only.
    public static func == (lhs: HTTPStatus, rhs: HTTPStatus) -> Bool { lhs.code == rhs.code }

    /// Hashes the code only.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// "404 Not Found".
    public var description: String { "\(code) \(reasonPhrase)" }

    /// 200 OK.
    public static let ok = HTTPStatus(code: 200)
    /// 201 Created.
    public static let created = HTTPStatus(code: 201)
    /// 204 No Content.
    public static let noContent = HTTPStatus(code: 204)
    /// 206 Partial Content: the byte range a `Range` asked for.
    public static let partialContent = HTTPStatus(code: 206)
    /// 301 Moved Permanently.
    public static let movedPermanently = HTTPStatus(code: 301)
    /// 302 Found.
    public static let found = HTTPStatus(code: 302)
    /// 303 See Other: the answer to a form post.
    public static let seeOther = HTTPStatus(code: 303)
    /// 304 Not Modified.
    public static let notModified = HTTPStatus(code: 304)
    /// 400 Bad Request.
    public static let badRequest = HTTPStatus(code: 400)
    /// 401 Unauthorized.
    public static let unauthorized = HTTPStatus(code: 401)
    /// 403 Forbidden.
    public static let forbidden = HTTPStatus(code: 403)
    /// 404 Not Found.
    public static let notFound = HTTPStatus(code: 404)
    /// 405 Method Not Allowed.
    public static let methodNotAllowed = HTTPStatus(code: 405)
    /// 409 Conflict.
    public static let conflict = HTTPStatus(code: 409)
    /// 410 Gone.
    public static let gone = HTTPStatus(code: 410)
    /// 411 Length Required.
    public static let lengthRequired = HTTPStatus(code: 411)
    /// 416 Range Not Satisfiable: a `Range` none of whose bytes exist.
    public static let rangeNotSatisfiable = HTTPStatus(code: 416)
    /// 412 Precondition Failed.
    public static let preconditionFailed = HTTPStatus(code: 412)
    /// 413 Content Too Large.
    public static let contentTooLarge = HTTPStatus(code: 413)
    /// 415 Unsupported Media Type.
    public static let unsupportedMediaType = HTTPStatus(code: 415)
    /// 422 Unprocessable Content.
    public static let unprocessableContent = HTTPStatus(code: 422)
    /// 429 Too Many Requests.
    public static let tooManyRequests = HTTPStatus(code: 429)
    /// 500 Internal Server Error.
    public static let internalServerError = HTTPStatus(code: 500)
    /// 503 Service Unavailable.
    public static let serviceUnavailable = HTTPStatus(code: 503)
    /// 507 Insufficient Storage.
    public static let insufficientStorage = HTTPStatus(code: 507)

    private static let standardPhrases: [Int: String] = [
        200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 206: "Partial Content",
        301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
        307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 406: "Not Acceptable", 408: "Request Timeout", 409: "Conflict",
        410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large",
        414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable", 418: "I'm a teapot",
        422: "Unprocessable Content",
        429: "Too Many Requests", 431: "Request Header Fields Too Large",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout", 507: "Insufficient Storage",
    ]
}
