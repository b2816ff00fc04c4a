internal import Foundation
public import HTTPServer
internal import Reactive
internal import Synchronization
public import ViewKit

/// A setting the application cannot run with, named with what to do instead.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    /// What is wrong and how to fix it.
    public let description: String

    /// Creates the error.
    public init(_ description: String) {
        self.description = description
    }
}

/// Ties screen routes to live screens: the entry point of a Screenplay app.
///
/// ```swift
/// let app = try Application(root: ".", views: { $0.register(MovieHeaderView.self, as: "MovieHeaderView") })
/// try app.screen("/movies/:id", MovieDetailViewController.self, parent: "/") { request in
///     let viewController = MovieDetailViewController()
///     let driver = MovieDetailDriver(id: Int(request.parameters["id"]!)!, store: store,
///                                    navigation: { viewController.navigationController })
///     viewController.bag.insert(MovieDetailBinder(viewController: viewController, driver: driver))
///     return viewController
/// }
/// try app.start()
/// ```
///
/// Templates load from `<root>/Templates` and are checked when a route is registered; static files are served
/// from `<root>/Public` under `/public/`. Every GET of a screen route opens a session (see the README's wire
/// protocol); actions post to `/screens/{sid}/actions/{action}`, pages listen on `/screens/{sid}/events`.
public final class Application: Sendable {
    /// The router; add your own routes (an API, say) before ``start()``.
    public let router: Router
    /// The templates: parsed at start-up and, with ``OperationsConfiguration/isDevelopment``, again when one changes.
    public var templates: TemplateLibrary { library.withLock { $0.templates } }
    /// The counters served at `/metrics`; with ``OperationsConfiguration/metrics`` `.off` nothing is counted.
    public let metrics: Metrics
    /// Where request and session lines go.
    public let logger: Logger
    /// Whether development features are on: template and stylesheet reload, detailed error pages.
    public var isDevelopment: Bool { operations.isDevelopment }
    package let sessions: SessionRegistry
    let library: Locked<(templates: TemplateLibrary, layout: Template)>
    let routes = Locked<[ScreenRoute]>([])
    let notFoundRoute = Locked<ScreenRoute?>(nil)
    private let server: Locked<HTTPServer?> = Locked(nil)
    private let metricsServer: Locked<HTTPServer?> = Locked(nil)
    /// Whether requests, renders, patches and streams are counted (`OperationsConfiguration.metrics` is not `.off`).
    let keepsMetrics: Bool
    private let readinessChecks = Locked<[(name: String, check: @Sendable () throws -> Void)]>([])
    private let isSweeping = Atomic<Bool>(false)
    private let configuration: ServerConfiguration
    let sessionConfiguration: SessionConfiguration
    let operations: OperationsConfiguration
    let root: String
    let viewRegistry: ViewRegistry
    let development = Locked(DevelopmentState())
    /// The browsers' shared event streams (wire protocol v2), by id.
    let sharedStreams = Locked<[String: SharedStream]>([:])

    /// Loads the templates under `<root>/Templates` (with the custom views `views` registers) and prepares the
    /// routes for actions, event streams and `/public/` files. Throws a ``TemplateError`` naming the file and line of
    /// a broken template.
    ///
    /// `operations` chooses the log, where `/metrics` is served and development mode; `/healthz`, `/readyz` and
    /// (unless turned off or moved) `/metrics` are routes of every application.
    public init(
        root: String, server: ServerConfiguration = ServerConfiguration(),
        sessions: SessionConfiguration = SessionConfiguration(),
        operations: OperationsConfiguration = OperationsConfiguration(), views: (ViewRegistry) -> Void = { _ in }
    ) throws {
        guard sessions.instanceName.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
            throw ConfigurationError(
                "SessionConfiguration.instanceName “\(sessions.instanceName)”: use letters, digits and - only.")
        }
        let registry = ViewRegistry()
        views(registry)
        let templates = try TemplateLibrary(directory: root + "/Templates", registry: registry)
        let layout = try Self.layout(in: templates)
        library = Locked((templates, layout))
        self.root = root
        viewRegistry = registry
        router = Router()
        self.operations = operations
        logger = operations.logger
        sessionConfiguration = sessions
        let logger = operations.logger
        self.sessions = SessionRegistry(
            configuration: sessions,
            onEnd: { session, reason in
                logger.log(
                    .info, "session.ended",
                    ["session": session.id, "path": Self.path(of: session.url), "reason": reason.rawValue])
            })
        let metrics = Metrics()
        self.metrics = metrics
        var configuration = server
        let logsRequests = server.accessLog
        // The application writes the request line itself, with the request id and in the chosen format.
        configuration.accessLog = false
        // With metrics off nothing is counted, and with the access log off too no observer is installed, so a
        // request costs neither the clock reads nor the counters' lock.
        let keepsMetrics = operations.metrics != .off
        self.keepsMetrics = keepsMetrics
        if keepsMetrics || logsRequests {
            configuration.requestObserver = { request in
                if keepsMetrics {
                    metrics.recordRequest(
                        route: request.route, method: request.method, status: request.status,
                        nanoseconds: request.nanoseconds)
                }
                if logsRequests { Self.logRequest(request, to: logger) }
            }
        }
        self.configuration = configuration
        metrics.readSessions(
            open: { [sessions = self.sessions] in sessions.count },
            evicted: { [sessions = self.sessions] in sessions.evictedCount })
        router.serveFiles(at: "/public", from: root + "/Public")
        router.post("/screens/:sid/actions/:action") { [unowned self] request in try self.performAction(request) }
        router.get("/screens/:sid/events") { [unowned self] request in try self.openEvents(request) }
        router.post("/screens/:sid/close") { [unowned self] request in try self.closeScreen(request) }
        router.get(SharedStream.openPath) { [unowned self] request in try self.openSharedStream(request) }
        router.post("/streams/:stream/screens") { [unowned self] request in try self.attachScreen(request) }
        router.post("/streams/:stream/detach") { [unowned self] request in try self.detachScreen(request) }
        metrics.readSharedStreams { [sharedStreams = self.sharedStreams] in
            sharedStreams.withLock { $0.values.map(\.screenCount) }
        }
        router.get("/healthz") { _ in .text("ok\n") }
        router.get("/readyz") { [unowned self] _ in self.readiness() }
        if operations.metrics == .main {
            router.get("/metrics") { _ in Self.metricsResponse(metrics) }
        }
    }

    /// A new unguessable id for a screen or a stream, naming this instance when it has a name.
    func newID() -> String {
        let token = SessionToken.make()
        return sessionConfiguration.instanceName.isEmpty ? token : sessionConfiguration.instanceName + "." + token
    }

    /// A URL without its query: queries may carry tokens, and stay out of logs.
    static func path(of url: String) -> String {
        String(url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    static func layout(in templates: TemplateLibrary) throws -> Template {
        let layout = try templates.template(named: "layout")
        try layout.validate(outlets: ["content": View.self])
        return layout
    }

    private static func logRequest(_ request: CompletedRequest, to logger: Logger) {
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
    private func readiness() -> Response {
        var failed: [String] = []
        if (try? library.withLock({ try $0.templates.template(named: "layout") })) == nil { failed.append("templates") }
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

    /// Registers a screen at a path pattern (`/movies/:id`) with the factory that assembles it.
    ///
    /// The factory runs on the new screen's scheduler for every GET: it creates the view controller, its driver and
    /// its binder. Throw ``ScreenNotFound`` for a request naming nothing. The controller's `@Outlet`s are checked
    /// against its template now, so a mistake fails at start-up. `parent` is where `popViewController` goes.
    public func screen<Controller: ViewController>(
        _ pattern: String, _ type: Controller.Type, parent: String = "/",
        factory: @escaping @Sendable (ScreenRequest) throws -> Controller
    ) throws {
        let route = ScreenRoute(pattern: pattern, parent: parent, type: type, factory: factory)
        try route.validate(templates)
        routes.withLock { $0.append(route) }
        router.get(pattern) { [unowned self] request in
            try self.openScreen(route: route, request: request)
        }
    }

    /// Registers the screen shown, with status 404, for unknown URLs and for factories that throw ``ScreenNotFound``.
    public func notFoundScreen<Controller: ViewController>(
        _ type: Controller.Type, factory: @escaping @Sendable (ScreenRequest) throws -> Controller
    ) throws {
        let route = ScreenRoute(pattern: "/", parent: "/", type: type, factory: factory)
        try route.validate(templates)
        notFoundRoute.withLock { $0 = route }
    }

    // MARK: Serving

    /// Starts the server; returns once it listens.
    public func start() throws {
        let server = HTTPServer(configuration: configuration, router: router)
        try server.start()
        self.server.withLock { $0 = server }
        if case .port(let port) = operations.metrics {
            let metricsRouter = Router()
            metricsRouter.get("/metrics") { [metrics] _ in Self.metricsResponse(metrics) }
            var metricsConfiguration = ServerConfiguration(host: configuration.host, port: port, threadCount: 1)
            metricsConfiguration.connectionLimit = 64
            let metricsServer = HTTPServer(configuration: metricsConfiguration, router: metricsRouter)
            do { try metricsServer.start() } catch {
                stop()
                throw error
            }
            self.metricsServer.withLock { $0 = metricsServer }
        }
        isSweeping.store(true, ordering: .relaxed)
        scheduleSweep()
        if operations.isDevelopment { startWatching() }
        logger.log(.info, "server.started", ["port": String(port), "development": String(operations.isDevelopment)])
    }

    /// The port `/metrics` is served on when ``OperationsConfiguration/metrics`` is `.port`; 0 otherwise.
    public var metricsPort: Int { metricsServer.withLock { $0?.port ?? 0 } }

    /// Ends idle sessions every few seconds while the server runs: one timer for all sessions, none per session.
    private func scheduleSweep() {
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .seconds(5)) { [weak self] in
            guard let self, self.isSweeping.load(ordering: .relaxed) else { return }
            self.sessions.expireIdle()
            self.scheduleSweep()
        }
    }

    /// How many screen sessions are open.
    public var openSessionCount: Int { sessions.count }

    /// How many sessions ended by expiry or by the cap.
    public var evictedSessionCount: Int { sessions.evictedCount }

    /// The port the server listens on (after ``start()``).
    public var port: Int { server.withLock { $0?.port ?? 0 } }

    /// Stops the server gracefully and ends every screen.
    public func stop() {
        isSweeping.store(false, ordering: .relaxed)
        stopWatching()
        let server = self.server.withLock { server in
            defer { server = nil }
            return server
        }
        let metricsServer = self.metricsServer.withLock { server in
            defer { server = nil }
            return server
        }
        sessions.endAll()
        server?.stop()
        metricsServer?.stop()
    }

    // MARK: Screens

    private func openScreen(route: ScreenRoute, request: Request) throws -> Response {
        var query: [String: String] = [:]
        for pair in request.query { query[pair.name] = pair.value }
        let screenRequest = ScreenRequest(
            url: request.target, path: request.path, parameters: request.parameters, query: query)
        let (session, html, status): (ScreenSession, [UInt8], HTTPStatus)
        do {
            (session, html, status) = try buildScreen(route: route, request: screenRequest)
        } catch let failure as ScreenBuildFailure {
            logger.log(
                .error, "screen.failed",
                [
                    "screen": failure.controllerName, "path": screenRequest.path, "step": failure.steps.last ?? "-",
                    "error": "\(failure.error)", "request_id": request.requestID,
                ])
            guard operations.isDevelopment else { throw failure }
            var response = Response.html(
                bytes: Array(DevelopmentErrorPage(failure: failure, url: screenRequest.url).html.utf8),
                status: .internalServerError)
            response.headers["Cache-Control"] = "no-store"
            return response
        }
        logger.log(
            .info, "session.opened",
            [
                "session": session.id, "path": screenRequest.path, "screen": route.controllerName,
                "status": "\(status.code)",
            ])
        var response = Response.html(bytes: html, status: status)
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// Builds a screen for `request` on a new session and renders its page; the not-found screen when the factory
    /// throws ``ScreenNotFound``.
    func buildScreen(route: ScreenRoute, request: ScreenRequest) throws -> (ScreenSession, [UInt8], HTTPStatus) {
        do {
            let (session, html) = try makeSession(route: route, request: request)
            return (session, html, .ok)
        } catch let failure as ScreenBuildFailure {
            if let error = failure.error as? HTTPError { throw error }
            guard let error = failure.error as? ScreenNotFound else { throw failure }
            guard let notFound = notFoundRoute.withLock({ $0 }) else {
                throw HTTPError(.notFound, message: error.description)
            }
            let (session, html) = try makeSession(route: notFound, request: request)
            return (session, html, .notFound)
        }
    }

    private func makeSession(route: ScreenRoute, request: ScreenRequest) throws -> (ScreenSession, [UInt8]) {
        let id = newID()
        let session = ScreenSession(
            id: id, csrfToken: SessionToken.make(), url: request.url,
            scheduler: ScreenScheduler(label: "screen"))
        let html = try session.scheduler.sync { () throws -> [UInt8] in
            let screen = try makeScreen(route: route, request: request, session: session)
            session.install(screen)
            return screen.renderPage()
        }
        sessions.insert(session)
        return (session, html)
    }

    /// Builds `route`'s screen for `session` on its scheduler. A factory that throws is reported with the lifecycle
    /// steps reached (the route, then the factory); what follows it (loading the view, the binder's bindings) does
    /// not throw.
    func makeScreen(route: ScreenRoute, request: ScreenRequest, session: ScreenSession) throws -> Screen {
        let (templates, layout) = library.withLock { ($0.templates, $0.layout) }
        let viewController: ViewController
        do {
            viewController = try ViewController.$screenTemplates.withValue(templates) { try route.factory(request) }
        } catch {
            // Named for a failure only: written out for every page, these strings were some 3,400 instructions and
            // four allocations of each page served.
            let steps = ["route \(route.pattern) matched \(request.path)", "factory of \(route.controllerName)"]
            throw ScreenBuildFailure(
                error: error, controllerName: route.controllerName, templateName: route.templateName, steps: steps)
        }
        let screen = Screen(
            viewController: viewController, layout: layout, templates: templates, url: request.url,
            backURL: route.parent, sessionID: session.id, csrfToken: session.csrfToken,
            eventBuffer: sessionConfiguration.eventBuffer)
        screen.metrics = keepsMetrics ? metrics : nil
        return screen
    }

    func route(forURL url: String) -> (ScreenRoute, ScreenRequest)? {
        guard url.hasPrefix("/"), !url.hasPrefix("//"), let components = URLComponents(string: url) else {
            return nil
        }
        let path = components.percentEncodedPath
        for route in routes.withLock({ $0 }) {
            if let parameters = route.match(path) {
                var query: [String: String] = [:]
                for item in components.queryItems ?? [] { query[item.name] = item.value ?? "" }
                return (route, ScreenRequest(url: url, path: path, parameters: parameters, query: query))
            }
        }
        return nil
    }

    // MARK: Actions

    private enum ActionResult: Sendable {
        case unknown
        case done(navigation: String?)
    }

    private func performAction(_ request: Request) throws -> Response {
        guard isSameOrigin(request) else { throw HTTPError(.forbidden, message: "Cross-origin action refused.") }
        let fromScript =
            request.headers["x-requested-with"] == "fetch"
            || request.headers["accept"]?.contains("text/event-stream") == true
        guard let id = request.parameters["sid"], let action = request.parameters["action"],
            let session = sessions.session(id: id)
        else {
            return .redirect(to: fallbackURL(for: request))
        }
        let token = try request.form()["csrf"] ?? ""
        guard SessionToken.equal(token, session.csrfToken) else {
            throw HTTPError(.forbidden, message: "This action's token is not valid. Reload the page and try again.")
        }
        let perform = { @Sendable (screen: Screen) -> ActionResult in
            screen.perform(action: action) ? .done(navigation: screen.navigationIntent()) : .unknown
        }
        let answer = { @Sendable [sessions] (result: ActionResult?) throws -> Response in
            switch result {
            case nil:
                return .redirect(to: session.url)
            case .unknown?:
                throw HTTPError(.notFound, message: "This screen has no action named “\(action)”.")
            case .done(let navigation)?:
                if navigation != nil || !fromScript { sessions.end(id: id, reason: .navigated) }
                guard fromScript else { return .redirect(to: navigation ?? session.url) }
                var response = Response.noContent
                if let navigation { response.headers["Screenplay-Navigate"] = navigation }
                return response
            }
        }
        // A screen with nothing queued runs the action on this thread at once (a hop to another thread and back adds
        // two thread wake-ups to the round trip). A busy one answers from its turn: an I/O thread that waited for a busy screen (a
        // change fanned out to thousands of screens queues a turn on each) held up every request of its
        // connections, and with a thread per core a few such waits held up the whole server.
        if session.scheduler.isIdle {
            return try answer(session.perform(perform))
        }
        return .deferred { pending in
            session.performLater(perform) { result in pending.respond { try answer(result) } }
        }
    }

    func isSameOrigin(_ request: Request) -> Bool {
        if let site = request.headers["sec-fetch-site"], site == "cross-site" || site == "same-site" { return false }
        guard let origin = request.headers["origin"] else { return true }
        guard let host = request.headers["host"] else { return false }
        return origin == "http://\(host)" || origin == "https://\(host)"
    }

    /// Where a post to an unknown session goes: the page it came from, when that is a screen of this site.
    private func fallbackURL(for request: Request) -> String {
        if let referer = request.headers["referer"], let components = URLComponents(string: referer),
            components.host == nil || request.headers["host"]?.hasPrefix(components.host ?? "") == true
        {
            let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            let url = path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
            if self.route(forURL: url) != nil { return url }
        }
        return "/"
    }

    // MARK: Events

    private func openEvents(_ request: Request) throws -> Response {
        let lastEventID = (request.headers["last-event-id"] ?? request.query["lastEventId"]).flatMap { Int($0) }
        let stream = EventStream()
        if keepsMetrics {
            metrics.streamOpened()
            stream.onClose { [metrics] in metrics.streamClosed() }
        }
        if let id = request.parameters["sid"], let session = sessions.session(id: id) {
            session.streamConnected(stream)
            // Not waiting for the screen's scheduler (see `attachLater`): the stream keeps what is sent before the
            // response takes it over.
            session.attachLater(stream, lastEventID: lastEventID) { [self] appeared in
                if appeared { logAppearance(of: session) }
                sendPendingDevelopmentError(to: stream)
            }
            return .eventStream(stream)
        }
        // Unknown session (expired, or the server restarted): rebuild the screen from its URL and reset the page.
        guard let url = request.query["url"], let (route, screenRequest) = route(forURL: url) else {
            throw HTTPError(.notFound, message: "No such screen.")
        }
        let session: ScreenSession
        do {
            (session, _, _) = try buildScreen(route: route, request: screenRequest)
        } catch {
            stream.close()
            throw error
        }
        session.streamConnected(stream)
        if session.perform({ $0.attachWithReset(stream) }) == true { logAppearance(of: session) }
        sendPendingDevelopmentError(to: stream)
        return .eventStream(stream)
    }

    /// Logs that a session's screen appeared (its page's first event stream connected). Here rather than in a
    /// closure each screen keeps: that was an allocation per session for one line.
    func logAppearance(of session: ScreenSession) {
        logger.log(.info, "session.appeared", ["session": session.id])
    }
}
