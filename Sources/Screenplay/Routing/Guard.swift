public import HTTPServer

/// Stands in front of screen routes and ordinary routes: it looks at a request and lets it through, sends the
/// browser elsewhere (a sign-in page), or refuses it. A group of screens behind a sign-in shares one guard.
///
/// ```swift
/// let signedIn = Guard { request in
///     accounts.user(signedInWith: request.cookies["session"]) != nil
///         ? .allow : .redirect(to: "/signin?next=" + request.target)
/// }
/// try app.screen("/movies/:id/edit", MovieEditViewController.self, guard: signedIn) { … }
/// router.patch("/api/movies/:id", Guard.bearerToken(token).protecting(patchMovie))
/// ```
///
/// A screen's guard also stands in front of its action and input posts, so a screen opened while signed in stops
/// taking them once its browser has signed out; and in front of rebuilding it from its URL after a restart.
public struct Guard: Sendable {
    /// What a guard decides.
    public enum Decision: Sendable, Equatable {
        /// The request goes on.
        case allow
        /// The browser goes to this site-relative URL instead (`303`, or `Screenplay-Navigate` for a script).
        case redirect(to: String)
        /// The request is refused with this status and message (`401`, `403`…).
        case refuse(HTTPStatus, String)
    }

    private let decide: @Sendable (Request) -> Decision

    /// A guard that decides with `decide`, called on the request's thread for every request it guards.
    public init(_ decide: @escaping @Sendable (Request) -> Decision) {
        self.decide = decide
    }

    /// What the guard decides for `request`.
    public func decision(for request: Request) -> Decision {
        decide(request)
    }

    /// `handler`, run only for the requests the guard allows; the others get the guard's answer.
    public func protecting(_ handler: @escaping Handler) -> Handler {
        { request in
            switch decide(request) {
            case .allow: return try handler(request)
            case .redirect(let location): return .redirect(to: location)
            case .refuse(let status, let message):
                throw HTTPError(
                    status, message: message, headers: status == .unauthorized ? ["WWW-Authenticate": "Bearer"] : [:])
            }
        }
    }

    /// A guard that lets through the requests with `Authorization: Bearer <token>` (compared in constant time)
    /// and refuses the others with `401` and a `WWW-Authenticate` challenge.
    public static func bearerToken(_ token: String) -> Guard {
        Guard { request in
            let sent = request.headers["authorization"] ?? ""
            let prefix = "Bearer "
            guard sent.hasPrefix(prefix), SessionToken.equal(String(sent.dropFirst(prefix.count)), token) else {
                return .refuse(.unauthorized, "This API needs its token: send Authorization: Bearer <token>.")
            }
            return .allow
        }
    }
}

extension Guard {
    /// The answer to `request` when the guard does not let it through, or nil when it does: a redirect (for a
    /// script, `204` with `Screenplay-Navigate`), or the refusal, thrown.
    func answer(to request: Request, fromScript: Bool) throws -> Response? {
        switch decision(for: request) {
        case .allow:
            return nil
        case .redirect(let location):
            guard fromScript else { return .redirect(to: location) }
            var response = Response.noContent
            response.headers[ScreenWire.Header.navigate.rawValue] = location
            return response
        case .refuse(let status, let message):
            throw HTTPError(status, message: message)
        }
    }
}
