internal import FoundationEssentials
public import HTTPServer

/// A sign-in for a group of screens: names and passwords checked against ``Accounts``, a signed cookie, a
/// ``required`` guard, and the `/signin` and `/signout` screens.
///
/// ```swift
/// let signIn = SignIn(accounts: try Accounts(contentsOf: root + "/accounts.txt"), secret: options.values["--signin-secret"])
/// try app.use(signIn)
/// try app.screen("/todos", TodoListViewController.self, guard: signIn.required) { request in
///     TodoListViewController.make(store: store, user: signIn.user(for: request) ?? "")
/// }
/// ```
///
/// The cookie (`screenplay_signin`, `HttpOnly`, `SameSite=Lax`, `Secure` over TLS) holds the name and its expiry,
/// signed with HMAC-SHA-256 under `secret`: a forged, altered or expired cookie means signed out. Instances that
/// share their users (behind one proxy) must share the secret; without one, each process makes its own, and a
/// restart signs everyone out.
///
/// The screens come from the templates `SignIn.html` and `SignOut.html`, built in; an app's own files of those
/// names replace them (keeping their outlets). The layout's outlets `signedIn` (shown when signed in), `userName`
/// (a label, the name) and `signInLink` (a link, shown when signed out) are filled on every screen's page.
public final class SignIn: Sendable {
    /// The cookie that holds the signed-in name.
    public static let cookieName = "screenplay_signin"
    /// The path of the sign-in screen; `/signout` is the sign-out screen.
    public static let path = "/signin"

    let accounts: Accounts
    let lifetime: Duration
    let throttle = SignInThrottle()
    private let key: [UInt8]
    /// The time cookies are signed at and checked against, in seconds since 1970.
    private let now: @Sendable () -> Double

    /// Checks names and passwords against `accounts`; cookies are signed with `secret` (at least 32 characters,
    /// or a random one of the process when nil) and last `lifetime`.
    public convenience init(accounts: Accounts, secret: String? = nil, lifetime: Duration = .seconds(12 * 3600)) {
        self.init(accounts: accounts, secret: secret, lifetime: lifetime, now: { Date().timeIntervalSince1970 })
    }

    /// The same, with cookies signed and checked at the times `now` gives (seconds since 1970): a test moves its
    /// clock past the lifetime instead of sleeping through it.
    package init(
        accounts: Accounts, secret: String? = nil, lifetime: Duration = .seconds(12 * 3600),
        now: @escaping @Sendable () -> Double
    ) {
        self.accounts = accounts
        self.lifetime = lifetime
        key = secret.map { Array($0.utf8) } ?? Crypto.randomBytes(32)
        self.now = now
    }

    /// A guard that lets signed-in browsers through and sends the others to the sign-in screen, which brings them
    /// back to the page they asked for.
    public var required: Guard {
        Guard { [self] request in
            guard user(for: request) == nil else { return .allow }
            return .redirect(to: Self.signInURL(next: Self.returnURL(of: request)))
        }
    }

    /// The name signed in on the browser that sent `request`, or nil.
    public func user(for request: Request) -> String? {
        user(cookie: request.cookies[Self.cookieName])
    }

    /// The name signed in on the browser that opened the screen, or nil.
    public func user(for request: ScreenRequest) -> String? {
        user(cookie: request.cookies[Self.cookieName])
    }

    /// The sign-in screen's URL, bringing the browser back to `next` (a site-relative URL) after it.
    public static func signInURL(next: String?) -> String {
        guard let next = next.flatMap(safeReturnURL), next != "/" else { return path }
        // Percent-encodes what a query value cannot hold as it is (`&`, `=`, `+`, `#`, `?`, `%`, spaces, non-ASCII),
        // byte by byte: it runs for every page that shows a Sign in link.
        var encoded = path + "?next="
        encoded.reserveCapacity(encoded.utf8.count + next.utf8.count)
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        for byte in next.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"),
                UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: ","),
                UInt8(ascii: ";"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded.unicodeScalars.append("%")
                encoded.unicodeScalars.append(hex[Int(byte >> 4)])
                encoded.unicodeScalars.append(hex[Int(byte & 0xF)])
            }
        }
        return encoded
    }

    /// `url` when it is a path on this site other than the sign-in's own, else nil: a `next` from a query is never
    /// another site (`//evil.example`, `/\evil.example`, `https://…`).
    static func safeReturnURL(_ url: String) -> String? {
        guard url.hasPrefix("/"), !url.hasPrefix("//"), !url.contains("\\"),
            !url.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }),
            url != path, !url.hasPrefix(path + "?"), !url.hasPrefix("/signout")
        else { return nil }
        return url
    }

    /// The page a refused request came from: the URL of a GET, the page that posted an action (its `Referer` on this
    /// site), or nil.
    private static func returnURL(of request: Request) -> String? {
        if request.method == .get { return request.target }
        return pagePath(referer: request.headers["referer"], host: request.headers["host"])
    }

    /// The path and query of `referer` when it is a page of this site (`host`), else nil.
    static func pagePath(referer: String?, host: String?) -> String? {
        guard let referer, let components = URLComponents(string: referer),
            components.host == nil || components.host == host?.split(separator: ":").first.map(String.init)
        else { return nil }
        let path = components.percentEncodedPath
        return path.isEmpty ? nil : path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }

    // MARK: The cookie

    /// The cookie that signs `name` in until `lifetime` from now.
    func cookie(signingIn name: String, secure: Bool) -> Cookie {
        let expiry = Int(now()) + Int(lifetime.components.seconds)
        let encodedName = Crypto.base64URL(Array(name.utf8))
        let signature = Crypto.base64URL(Crypto.hmac(key: key, Array("v1|\(encodedName)|\(expiry)".utf8)))
        var cookie = Cookie(name: Self.cookieName, value: "\(encodedName).\(expiry).\(signature)", maxAge: lifetime)
        cookie.isSecure = secure
        return cookie
    }

    /// The value of a cookie that signs `name` in for ``lifetime`` from now: for tests and harnesses
    /// (`ScreenHarness(…, cookies: [SignIn.cookieName: signIn.cookieValue(signingIn: "alice")])`).
    public func cookieValue(signingIn name: String) -> String {
        cookie(signingIn: name, secure: false).value
    }

    /// The cookie that signs the browser out.
    func signOutCookie(secure: Bool) -> Cookie {
        var cookie = Cookie(name: Self.cookieName, value: "", maxAge: .zero)
        cookie.isSecure = secure
        return cookie
    }

    /// The name `cookie` signs in, when its signature is right and it has not expired.
    func user(cookie: String?) -> String? {
        guard let cookie, cookie.utf8.count <= 512 else { return nil }
        let parts = cookie.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let expiry = Int(parts[1]), expiry > Int(now()),
            let signature = Crypto.bytes(base64URL: parts[2]),
            Crypto.equal(signature, Crypto.hmac(key: key, Array("v1|\(parts[0])|\(expiry)".utf8))),
            let name = Crypto.bytes(base64URL: parts[0])
        else { return nil }
        return String(validating: name, as: UTF8.self)
    }
}
