/// An HTTP request as a handler sees it: fully received, decoded, and independent of the connection.
///
/// ```swift
/// router.get("/movies/:id") { request in
///     guard let id = request.parameters["id"].flatMap(Int.init) else { throw HTTPError(.notFound) }
///     let page = request.query["page"] ?? "1"
///     return .text("movie \(id), page \(page)")
/// }
/// ```
public struct Request: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The path, percent-decoded (invalid UTF-8 shown as U+FFFD), without the query.
    public var path: String
    /// The decoded query string.
    public var query: QueryParameters
    /// The request headers; look-ups ignore case: `headers["last-event-id"]`.
    public var headers: HTTPHeaders
    /// Cookies from the `Cookie` header, by name (the first wins when a name repeats).
    public var cookies: [String: String]
    /// The body as received (empty when there is none).
    public var body: [UInt8]
    /// Values of the route pattern's parameters, percent-decoded: `/movies/:id` gives `["id": "42"]`.
    public var parameters: [String: String]
    /// The client's IP address, such as `127.0.0.1` or `::1`; empty when unknown.
    public var remoteAddress: String {
        get { peer.text }
        set { peer = .text(newValue) }
    }
    /// `remoteAddress` as the connection gave it, written out when asked for.
    package var peer: PeerAddress
    /// The request target as sent: path and query, still percent-encoded (`/search?q=star+wars`).
    /// Use it to send a client back to the URL it asked for.
    public var target: String
    /// The id the server gave this request (`5f3a9c1e-2b`): it is on the request's log line and in the error page a
    /// failed request gets, so a user's report can be matched to the log. Empty for requests built by hand.
    public var requestID = ""

    /// The path as sent, still percent-encoded; routing and static files work on it so that an
    /// encoded `/` stays inside its segment.
    var rawPath: String

    /// Creates a request, as the server does for each one it receives; useful in tests of handlers.
    ///
    /// `target` is the request target as sent, such as `/search?q=star+wars`; path, query and
    /// cookies are decoded from it and from `headers`.
    public init(
        method: HTTPMethod, target: String, headers: HTTPHeaders = [:], body: [UInt8] = [],
        remoteAddress: String = ""
    ) {
        self.target = target
        let bytes = Array(target.utf8)
        let questionMark = bytes.firstIndex(of: UInt8(ascii: "?"))
        let pathBytes = bytes[..<(questionMark ?? bytes.endIndex)]
        self.method = method
        self.rawPath = String(decoding: pathBytes, as: UTF8.self)
        self.path = PercentDecoding.decode(pathBytes, plusAsSpace: false) ?? ""
        if let questionMark {
            self.query = QueryParameters(parsing: bytes[(questionMark + 1)...])
        } else {
            self.query = QueryParameters()
        }
        self.headers = headers
        self.cookies = Request.parseCookies(headers.values(for: "Cookie"))
        self.body = body
        self.parameters = [:]
        self.peer = .text(remoteAddress)
    }

    /// Parses `Cookie: a=1; b=2` headers; values keep their bytes except for surrounding quotes.
    static func parseCookies(_ lines: [String]) -> [String: String] {
        var cookies: [String: String] = [:]
        for line in lines {
            for piece in line.split(separator: ";") {
                guard let equals = piece.firstIndex(of: "=") else { continue }
                let name = piece[..<equals].trimmingOptionalWhitespace()
                var value = piece[piece.index(after: equals)...].trimmingOptionalWhitespace()
                if value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"") {
                    value = String(value.dropFirst().dropLast())
                }
                if !name.isEmpty && cookies[name] == nil { cookies[name] = value }
            }
        }
        return cookies
    }
}

extension Substring {
    /// The substring without leading and trailing spaces and tabs (HTTP's optional white space), as a `String`.
    package func trimmingOptionalWhitespace() -> String {
        var slice = self[...]
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
