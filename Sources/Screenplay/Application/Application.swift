internal import Foundation
public import HTTPServer
internal import Reactive
internal import Synchronization
public import ViewKit

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
    /// The templates, parsed once at start-up.
    public let templates: TemplateLibrary
    package let sessions: SessionRegistry
    private let layout: Template
    private let routes = Locked<[ScreenRoute]>([])
    private let notFoundRoute = Locked<ScreenRoute?>(nil)
    private let server: Locked<HTTPServer?> = Locked(nil)
    private let isSweeping = Atomic<Bool>(false)
    private let configuration: ServerConfiguration
    private let sessionConfiguration: SessionConfiguration

    /// Loads the templates under `<root>/Templates` (with the custom views `views` registers) and prepares the
    /// routes for actions, event streams and `/public/` files. Throws a ``TemplateError`` naming the file and line of
    /// a broken template.
    public init(
        root: String, server: ServerConfiguration = ServerConfiguration(),
        sessions: SessionConfiguration = SessionConfiguration(), views: (ViewRegistry) -> Void = { _ in }
    ) throws {
        let registry = ViewRegistry()
        views(registry)
        templates = try TemplateLibrary(directory: root + "/Templates", registry: registry)
        layout = try templates.template(named: "layout")
        try layout.validate(outlets: ["content": View.self])
        router = Router()
        configuration = server
        sessionConfiguration = sessions
        self.sessions = SessionRegistry(configuration: sessions)
        router.serveFiles(at: "/public", from: root + "/Public")
        router.post("/screens/:sid/actions/:action") { [unowned self] request in try self.performAction(request) }
        router.get("/screens/:sid/events") { [unowned self] request in try self.openEvents(request) }
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
        try validate(type)
        let route = ScreenRoute(pattern: pattern, parent: parent, factory: factory)
        routes.withLock { $0.append(route) }
        router.get(pattern) { [unowned self] request in
            try self.openScreen(route: route, request: request)
        }
    }

    /// Registers the screen shown, with status 404, for unknown URLs and for factories that throw ``ScreenNotFound``.
    public func notFoundScreen<Controller: ViewController>(
        _ type: Controller.Type, factory: @escaping @Sendable (ScreenRequest) throws -> Controller
    ) throws {
        try validate(type)
        notFoundRoute.withLock { $0 = ScreenRoute(pattern: "/", parent: "/", factory: factory) }
    }

    private func validate<Controller: ViewController>(_ type: Controller.Type) throws {
        let template = try templates.template(named: type.templateName)
        try template.validate(outlets: type.init().declaredOutlets)
    }

    // MARK: Serving

    /// Starts the server; returns once it listens.
    public func start() throws {
        let server = HTTPServer(configuration: configuration, router: router)
        try server.start()
        self.server.withLock { $0 = server }
        isSweeping.store(true, ordering: .relaxed)
        scheduleSweep()
    }

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
        let server = self.server.withLock { server in
            defer { server = nil }
            return server
        }
        sessions.endAll()
        server?.stop()
    }

    // MARK: Screens

    private func openScreen(route: ScreenRoute, request: Request) throws -> Response {
        var query: [String: String] = [:]
        for pair in request.query { query[pair.name] = pair.value }
        let screenRequest = ScreenRequest(
            url: request.target, path: request.path, parameters: request.parameters, query: query)
        let (session, html, status) = try buildScreen(route: route, request: screenRequest)
        _ = session
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
        } catch let error as ScreenNotFound {
            guard let notFound = notFoundRoute.withLock({ $0 }) else {
                throw HTTPError(.notFound, message: error.description)
            }
            let (session, html) = try makeSession(route: notFound, request: request)
            return (session, html, .notFound)
        }
    }

    private func makeSession(route: ScreenRoute, request: ScreenRequest) throws -> (ScreenSession, [UInt8]) {
        let id = SessionToken.make()
        let session = ScreenSession(
            id: id, csrfToken: SessionToken.make(), url: request.url,
            scheduler: ScreenScheduler(label: "screen"))
        let context = RenderContext(
            actionPath: { "/screens/\(id)/actions/\($0)" }, csrfToken: session.csrfToken)
        let html = try session.scheduler.sync { () throws -> [UInt8] in
            let viewController = try ViewController.$screenTemplates.withValue(templates) {
                try route.factory(request)
            }
            let screen = Screen(
                viewController: viewController, layout: layout, templates: templates, url: request.url,
                backURL: route.parent, context: context, eventsURL: session.eventsURL,
                eventBuffer: sessionConfiguration.eventBuffer)
            screen.page.setAttribute("data-events", session.eventsURL)
            screen.page.setAttribute("data-screen-url", request.url)
            session.install(screen)
            return screen.renderPage()
        }
        sessions.insert(session)
        return (session, html)
    }

    private func route(forURL url: String) -> (ScreenRoute, ScreenRequest)? {
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
        let result = session.perform { screen -> ActionResult in
            screen.perform(action: action) ? .done(navigation: screen.navigationIntent()) : .unknown
        }
        switch result {
        case nil:
            return .redirect(to: session.url)
        case .unknown?:
            throw HTTPError(.notFound, message: "This screen has no action named “\(action)”.")
        case .done(let navigation)?:
            if navigation != nil || !fromScript { sessions.end(id: id) }
            guard fromScript else { return .redirect(to: navigation ?? session.url) }
            var response = Response.noContent
            if let navigation { response.headers["Screenplay-Navigate"] = navigation }
            return response
        }
    }

    private func isSameOrigin(_ request: Request) -> Bool {
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
        if let id = request.parameters["sid"], let session = sessions.session(id: id) {
            session.streamConnected(stream)
            if session.perform({ $0.attach(stream, lastEventID: lastEventID) }) != nil {
                return .eventStream(stream)
            }
        }
        // Unknown session (expired, or the server restarted): rebuild the screen from its URL and reset the page.
        guard let url = request.query["url"], let (route, screenRequest) = route(forURL: url) else {
            throw HTTPError(.notFound, message: "No such screen.")
        }
        let (session, _, _) = try buildScreen(route: route, request: screenRequest)
        session.streamConnected(stream)
        _ = session.perform { $0.attachWithReset(stream) }
        return .eventStream(stream)
    }
}
