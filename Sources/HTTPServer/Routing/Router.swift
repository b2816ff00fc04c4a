import FoundationEssentials
import Primitives
import Synchronization

/// What answers a request. Handlers run on the server's I/O threads: keep them short, or hand the work to another
/// queue and answer from there with ``Response/deferred(_:)`` (a handler that waits holds its I/O thread, and every
/// connection that thread serves). Throw ``HTTPError`` for an answer with its own status.
public typealias Handler = @Sendable (Request) throws -> Response

/// Maps a method and a path pattern to a handler.
///
/// Build it at start-up; the server takes a snapshot when it starts, and later additions are a
/// programmer error. Routes are tried in the order they were added, the first match wins. A path
/// that matches no pattern gets 404; one that matches only under other methods gets 405 with `Allow`;
/// every `GET` route also answers `HEAD` (the server sends the headers only). Only a request target that is a path
/// (origin form, `/…`) reaches a route: `OPTIONS *` is answered by the router itself, and any other target (`*` with
/// another method, the absolute form `http://…`, an empty one) gets 400.
///
/// ```swift
/// let router = Router()
/// router.get("/movies/:id") { request in .text("movie \(request.parameters["id"]!)") }
/// router.post("/movies/:id/rating") { request in
///     let form = try request.form()
///     return .redirect(to: "/movies/\(request.parameters["id"]!)")
/// }
/// router.serveFiles(at: "/public", from: "Public")
/// ```
public final class Router: Sendable {
    struct Route: Sendable {
        let method: HTTPMethod
        let pattern: RoutePattern
        let handler: Handler
        /// Set for a route added with ``Router/receive(_:_:_:)``: the server calls it with the headers and streams
        /// the body into its receiver; `handler` then does the same with a body already in memory.
        var bodyHandler: BodyHandler? = nil
    }

    private struct State {
        var routes: [Route] = []
        var isFrozen = false
        /// Routes that could not be added, as messages: the server refuses to start while there are any.
        var mistakes: [String] = []
    }

    private let state = LockedValue(State())

    /// Creates a router with no routes.
    public init() {}

    /// Adds a route for `method` and `pattern` (`/movies/:id`, `/public/*path`).
    public func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Handler) {
        add(Route(method: method, pattern: RoutePattern(pattern), handler: handler))
    }

    /// Adds a route whose body is not read into memory: `handler` sees the headers first and either answers at once
    /// (the body is never read) or returns a ``RequestBodyReceiver`` that takes the body piece by piece as it
    /// arrives. The server's ``ServerConfiguration/maxBodySize`` does not apply: the receiver sets its own limits.
    ///
    /// ```swift
    /// router.receive(.put, "/files/:name") { request in
    ///     guard request.headers["Content-Length"] != nil else { throw HTTPError(.lengthRequired) }
    ///     return .receive(FileWriter(name: request.parameters["name"]!))
    /// }
    /// ```
    public func receive(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping BodyHandler) {
        let whole: Handler = { request in
            switch try handler(request) {
            case .respond(let response):
                return response
            case .ordinary:
                // Reached only when no ordinary route for the pattern comes before this one.
                return .error(.notFound, message: "Not found.")
            case .receive(let receiver):
                let accepted = request.body.withUnsafeBytes { receiver.receive($0) }
                if !accepted && request.body.count > Daemon.discardAllowance {
                    receiver.abandon()
                    return .error(.contentTooLarge, message: "The body was refused.")
                }
                return receiver.finish()
            }
        }
        var route = Route(method: method, pattern: RoutePattern(pattern), handler: whole)
        route.bodyHandler = handler
        add(route)
    }

    private func add(_ route: Route) {
        let method = route.method, pattern = route.pattern
        let refused = state.withLock { state -> String? in
            if let mistake = route.pattern.mistake {
                state.mistakes.append(mistake)
                return nil
            }
            guard !state.isFrozen else {
                return "\(method) \(pattern) was added after the server started; add routes before start()"
            }
            state.routes.append(route)
            return nil
        }
        // Too late to refuse the start: the route is not added, and the mistake is said where a person sees it.
        if let refused { StandardStream.error.write("programmer error: \(refused)\n") }
    }

    /// Adds a `GET` route (which also answers `HEAD`).
    public func get(_ pattern: String, _ handler: @escaping Handler) { add(.get, pattern, handler) }
    /// Adds a `POST` route.
    public func post(_ pattern: String, _ handler: @escaping Handler) { add(.post, pattern, handler) }
    /// Adds a `PUT` route.
    public func put(_ pattern: String, _ handler: @escaping Handler) { add(.put, pattern, handler) }
    /// Adds a `PATCH` route.
    public func patch(_ pattern: String, _ handler: @escaping Handler) { add(.patch, pattern, handler) }
    /// Adds a `DELETE` route.
    public func delete(_ pattern: String, _ handler: @escaping Handler) { add(.delete, pattern, handler) }
    /// Adds a `HEAD` route, for when a `GET` route's automatic `HEAD` is not what you want.
    public func head(_ pattern: String, _ handler: @escaping Handler) { add(.head, pattern, handler) }

    /// Serves the files under `directory` at `prefix`: `serveFiles(at: "/public", from: "Public")`
    /// answers `/public/style.css` with `Public/style.css`.
    ///
    /// Content types by extension, `ETag` with `If-None-Match` → 304, `Last-Modified`,
    /// `Cache-Control`, `HEAD`. Nothing outside `directory` is ever served: `..` (even encoded),
    /// encoded slashes, backslashes, NUL bytes, dot segments and symbolic links leading out all get 404.
    public func serveFiles(at prefix: String, from directory: String) {
        let files = StaticFiles(prefix: prefix, directory: directory)
        let trimmed = prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
        get(trimmed + "/*path") { request in files.respond(to: request) }
    }

    /// Answers `request` as the server would, minus the transport: the matching handler's response,
    /// a rendered ``HTTPError``, 404, 405 or a 500 for any other error. Useful in tests of handlers. A deferred
    /// response (``Response/deferred(_:)``) is waited for: this returns the response the client would get. A router
    /// with a malformed route answers `500` with what is wrong, as its server would refuse to start.
    public func respond(to request: Request) -> Response {
        let table: RouteTable
        do {
            table = try self.table()
        } catch {
            return .text("\(error)\n", status: .internalServerError)
        }
        var response = table.respond(to: request)
        while let pending = response.pending {
            let pattern = response.routePattern
            response = pending.wait()
            response.routePattern = pattern
        }
        return response
    }

    /// The routes as an immutable table; after the first call, no route can be added. Throws a ``ServerError``
    /// naming the routes whose patterns were malformed.
    func table() throws -> RouteTable {
        let (routes, mistakes) = state.withLock { state in
            state.isFrozen = true
            return (state.routes, state.mistakes)
        }
        guard mistakes.isEmpty else { throw ServerError(mistakes.joined(separator: "; ")) }
        return RouteTable(routes: routes)
    }
}

/// The immutable routes the server answers from, so that looking one up takes no lock.
struct RouteTable: Sendable {
    let routes: [Router.Route]
    /// Each route's pattern's shape, by the route's index.
    private let shapes: [RoutePattern.Shape]

    /// The body route that answers `method` at `rawPath`, with the path parameters and the route's pattern; `nil` when
    /// an ordinary route (or none) answers it.
    func bodyRoute(method: String, rawPath: String) -> (BodyHandler, [String: String], String)? {
        guard rawPath.hasPrefix("/") else { return nil }
        let segments = RoutePattern.split(rawPath)
        // The first body route that matches, even behind an ordinary one for the same pattern (which it may hand the
        // request back to, `BodyReception.ordinary`).
        for route in routes where route.method.rawValue == method {
            guard let handler = route.bodyHandler, let parameters = route.pattern.match(segments) else { continue }
            return (handler, parameters, route.pattern.description)
        }
        return nil
    }

    /// The methods of the routes that stream their body, each once: the server looks for a body route when a
    /// request of one of them has its headers in, and for no other request (a page's GET split its path and compared
    /// the method of every route to find none: Benchmarks/History/35).
    private let bodyRouteMethods: [String]

    init(routes: [Router.Route]) {
        self.routes = routes
        shapes = routes.map(\.pattern.shape)
        var methods: [String] = []
        for route in routes where route.bodyHandler != nil && !methods.contains(route.method.rawValue) {
            methods.append(route.method.rawValue)
        }
        bodyRouteMethods = methods
    }

    /// Whether a route of `method` streams its body.
    func hasBodyRoutes(for method: String) -> Bool {
        bodyRouteMethods.contains(method)
    }

    /// Calls a body route's handler as ``call(_:with:for:)`` calls an ordinary one: an ``HTTPError`` is its
    /// response, any other error a logged 500.
    static func reception(of handler: BodyHandler, for request: Request, route: String) -> BodyReception {
        do {
            return try handler(request)
        } catch let error as HTTPError {
            return .respond(error.response)
        } catch {
            return .respond(
                internalError(
                    error, summary: "\(request.method) \(request.path) (route \(route))", requestID: request.requestID))
        }
    }

    func respond(to request: Request) -> Response {
        guard request.rawPath.hasPrefix("/") else { return respond(toNonPath: request) }
        let segments = RoutePattern.split(request.rawPath)
        var allowed: [HTTPMethod] = []
        var getFallback: (Router.Route, [String: String])?
        // Routes whose shape cannot match are passed over from a small array of their own: `for route in routes`
        // copied each of the eighteen routes before a detail page's (its pattern, handlers and strings retained, then
        // released) to try its pattern.
        for index in routes.indices where shapes[index].admits(segments) {
            let route = routes[index]
            guard let parameters = route.pattern.match(segments) else { continue }
            if route.method == request.method {
                return call(route, with: parameters, for: request)
            }
            if request.method == .head && route.method == .get && getFallback == nil {
                getFallback = (route, parameters)
            }
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        if let (route, parameters) = getFallback {
            return call(route, with: parameters, for: request)
        }
        if allowed.isEmpty {
            return Response.error(.notFound, message: "Nothing here.")
        }
        if allowed.contains(.get) && !allowed.contains(.head) { allowed.append(.head) }
        var response = Response.error(.methodNotAllowed, message: "\(request.method) is not allowed here.")
        response.headers["Allow"] = allowed.map(\.rawValue).joined(separator: ", ")
        return response
    }

    /// The answer to a request whose target is not a path, which no route ever sees. `OPTIONS *` asks what the server
    /// as a whole supports (RFC 9110 §9.3.7); the asterisk form means nothing with any other method, and the
    /// absolute form (`http://host/path`, meant for proxies) is refused rather than routed on a path it never had.
    private func respond(toNonPath request: Request) -> Response {
        if request.target == "*" && request.method == .options {
            var methods: [HTTPMethod] = []
            for route in routes where !methods.contains(route.method) { methods.append(route.method) }
            if methods.contains(.get) && !methods.contains(.head) { methods.append(.head) }
            methods.append(.options)
            var response = Response(status: .noContent)
            response.headers["Allow"] = methods.map(\.rawValue).joined(separator: ", ")
            return response
        }
        let message =
            request.target == "*"
            ? "The request target * is only meaningful with OPTIONS."
            : "The request target must be a path starting with /."
        return Response.error(.badRequest, message: message)
    }

    private func call(_ route: Router.Route, with parameters: [String: String], for request: Request) -> Response {
        var request = request
        request.parameters = parameters
        var response: Response
        do {
            response = try route.handler(request)
        } catch let error as HTTPError {
            response = error.response
        } catch {
            response = Self.internalError(
                error, summary: Self.summary(of: request, route: route), requestID: request.requestID)
        }
        response.routePattern = route.pattern.description
        response.pending?.setOrigin(
            PendingResponse.Origin(summary: Self.summary(of: request, route: route), requestID: request.requestID))
        return response
    }

    private static func summary(of request: Request, route: Router.Route) -> String {
        "\(request.method) \(request.path) (route \(route.pattern))"
    }

    /// The 500 for an error a handler threw that is not an ``HTTPError``, logged with the request it answered.
    static func internalError(_ error: any Error, summary: String, requestID: String) -> Response {
        // The id ties the user's page to this line; nothing about the error reaches the client.
        ServerLog.error("\(summary) threw: \(error) request_id=\(requestID)")
        let reference = requestID.isEmpty ? "" : " Request id: \(requestID)."
        return Response.error(.internalServerError, message: "Something went wrong on our side.\(reference)")
    }
}
