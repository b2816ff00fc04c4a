public import HTTPServer
internal import Primitives
internal import Synchronization

/// What a screen factory is given: the request that opened the screen, and what its first response should carry.
///
/// ```swift
/// try app.screen("/account", AccountViewController.self) { request in
///     guard let user = accounts.user(signedInWith: request.cookies["session"]) else {
///         throw ScreenRedirect(to: "/signin?next=" + request.url)
///     }
///     request.setCookie(Cookie(name: "seen", value: "1"))
///     return AccountViewController.make(user: user, browser: request.browserID)
/// }
/// ```
public struct ScreenRequest: Sendable {
    /// The screen's URL: path and query, site-relative.
    public let url: String
    /// The path, without the query.
    public let path: String
    /// The route's path parameters (`/movies/:id` → `["id": "3"]`).
    public let parameters: [String: String]
    /// The decoded query parameters (the last value of a repeated key).
    public let query: [String: String]
    /// The request's headers (look-ups ignore case). For a screen rebuilt from its URL (after a restart), the headers
    /// of the request that asked for it again.
    public let headers: HTTPHeaders
    /// The cookies the browser sent, by name.
    public let cookies: [String: String]
    /// The client's IP address, as the connection gave it (behind a proxy: the proxy's; its headers say more).
    public var remoteAddress: String { peer.text }
    /// The address as the connection gave it, written out as text only when ``remoteAddress`` is read: most screens
    /// never read it.
    private let peer: PeerAddress
    /// A stable identity of the browser: the `screenplay_browser` cookie (`HttpOnly`, `SameSite=Lax`, a year), set
    /// on the first page a browser gets. Not a sign-in: anyone holding the cookie is that browser.
    public let browserID: String
    /// Whether the page is served over TLS (here, or at a proxy that says so with `X-Forwarded-Proto: https`):
    /// cookies are then `Secure`.
    public let isSecure: Bool
    /// Whether the screen is built to live (its page's stream attached, or a form posted to it), rather than to render
    /// a page GET, which keeps nothing: the page is written and the screen ended at once. A factory may skip work only
    /// a live screen needs (a timer, a costly subscription) when it is false; the live screen built when the page's
    /// stream attaches runs the factory again, with this true. The harness's screens are live.
    public internal(set) var isLive = true
    private let response: ResponseCookies

    /// Creates a request; the runtime and the test harness do this.
    public init(
        url: String, path: String, parameters: [String: String] = [:], query: [String: String] = [:],
        headers: HTTPHeaders = [:], cookies: [String: String] = [:], remoteAddress: String = "",
        browserID: String = "", isSecure: Bool = false
    ) {
        self.init(
            url: url, path: path, parameters: parameters, query: query, headers: headers, cookies: cookies,
            peer: .text(remoteAddress), browserID: browserID, isSecure: isSecure)
    }

    /// Creates a request whose ``remoteAddress`` is `peer`, written out when read.
    init(
        url: String, path: String, parameters: [String: String], query: [String: String], headers: HTTPHeaders,
        cookies: [String: String], peer: PeerAddress, browserID: String, isSecure: Bool
    ) {
        self.url = url
        self.path = path
        self.parameters = parameters
        self.query = query
        self.headers = headers
        self.cookies = cookies
        self.peer = peer
        self.browserID = browserID
        self.isSecure = isSecure
        response = ResponseCookies()
    }

    /// Sets `cookie` on the screen's first response (its page). `Secure` is added when the page is served over TLS.
    public func setCookie(_ cookie: Cookie) {
        var cookie = cookie
        if isSecure { cookie.isSecure = true }
        response.cookies.withLock { $0.append(cookie) }
    }

    /// The cookies the factory set, in order.
    package var cookiesToSet: [Cookie] { response.cookies.withLock { $0 } }

    /// A URL without its query: queries may carry tokens, and stay out of logs.
    static func path(of url: String) -> String {
        String(url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }
}

/// The cookies a screen's first response sets, shared by the copies of its request.
private final class ResponseCookies: Sendable {
    let cookies = Mutex<[Cookie]>([])
}

/// A cookie for a response's `Set-Cookie`: `HttpOnly` and `SameSite=Lax` unless said otherwise.
public struct Cookie: Sendable, Equatable {
    public enum SameSite: String, Sendable { case strict = "Strict", lax = "Lax", none = "None" }

    public var name: String
    public var value: String
    /// How long the browser keeps it; `nil` for the browsing session, `.zero` to delete it.
    public var maxAge: Duration?
    public var path = "/"
    public var isHTTPOnly = true
    public var sameSite = SameSite.lax
    public var isSecure = false

    public init(name: String, value: String, maxAge: Duration? = nil) {
        self.name = name
        self.value = value
        self.maxAge = maxAge
    }

    /// The header's value. Names and values are limited to cookie-safe characters: anything else is
    /// percent-encoded in the value, and a name with other characters is a programmer error (the cookie is not
    /// written).
    public var headerValue: String? {
        guard name.withUTF8Bytes({ !$0.isEmpty && $0.allSatisfy(Self.isTokenByte) }) else { return nil }
        // Written as bytes into one buffer, not built with `+` and interpolation (a string grown piece by piece, a
        // scalar at a time for the value): it is on every first visit's page (Benchmarks/History/34). Each string's
        // bytes are read in place and each fixed part copied from its static bytes: appending a `String.UTF8View`
        // went through the generic sequence append, a byte at a time (Benchmarks/History/50).
        var text: [UInt8] = []
        text.reserveCapacity(name.utf8.count + value.utf8.count + path.utf8.count + 80)
        name.withUTF8Bytes { text.append(contentsOf: $0) }
        text.append(UInt8(ascii: "="))
        value.withUTF8Bytes { Self.appendEncoded($0, to: &text) }
        Self.append("; Path=", to: &text)
        path.withUTF8Bytes { text.append(contentsOf: $0) }
        if let maxAge {
            Self.append("; Max-Age=", to: &text)
            String(maxAge.components.seconds).withUTF8Bytes { text.append(contentsOf: $0) }
        }
        if isHTTPOnly { Self.append("; HttpOnly", to: &text) }
        switch sameSite {
        case .strict: Self.append("; SameSite=Strict", to: &text)
        case .lax: Self.append("; SameSite=Lax", to: &text)
        case .none: Self.append("; SameSite=None", to: &text)
        }
        if isSecure || sameSite == .none { Self.append("; Secure", to: &text) }
        return String(decoding: text, as: UTF8.self)
    }

    private static func append(_ part: StaticString, to text: inout [UInt8]) {
        part.withUTF8Buffer { text.append(contentsOf: $0) }
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            return true
        default:
            return false
        }
    }

    /// Appends `value`'s bytes, each one outside the cookie-safe characters and `~` as `%` and two uppercase
    /// hexadecimal digits.
    private static func appendEncoded(_ value: UnsafeBufferPointer<UInt8>, to text: inout [UInt8]) {
        let digits: StaticString = "0123456789ABCDEF"
        for byte in value {
            if isTokenByte(byte) || byte == UInt8(ascii: "~") {
                text.append(byte)
            } else {
                text.append(UInt8(ascii: "%"))
                text.append(digits.utf8Start[Int(byte >> 4)])
                text.append(digits.utf8Start[Int(byte & 0xF)])
            }
        }
    }
}

extension Response {
    /// Adds a `Set-Cookie` header for `cookie` (nothing for a cookie whose name cannot be written).
    public mutating func setCookie(_ cookie: Cookie) {
        if let value = cookie.headerValue { headers.add("Set-Cookie", value) }
    }
}

/// Thrown by a screen factory to answer with a redirect instead of a screen (`303 See Other` to `location`, a
/// site-relative URL): a sign-in that is needed, a moved page.
public struct ScreenRedirect: Error, Sendable, CustomStringConvertible {
    /// Where the browser goes.
    public let location: String

    /// Creates the redirect; `location` must be site-relative (`/signin?next=…`).
    public init(to location: String) {
        self.location = location.hasPrefix("/") && !location.hasPrefix("//") ? location : "/"
    }

    public var description: String { "redirect to \(location)" }
}

/// Thrown by a screen factory when the request names something that does not exist: the application shows its
/// not-found screen with status 404.
public struct ScreenNotFound: Error, Sendable, CustomStringConvertible {
    /// What was not found, for the log.
    public let description: String

    /// Creates the error.
    public init(_ description: String) {
        self.description = description
    }
}
