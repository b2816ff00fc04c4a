internal import Foundation
public import HTTPServer
import Primitives
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
/// from `<root>/Public` under `/public/`. Every GET of a screen route opens a session; its page speaks the wire
/// protocol (`ScreenWire`, and the DocC article "The wire protocol") with it.
public final class Application: Sendable {
    /// The router; add your own routes (an API, say) before ``start()``.
    public let router: Router
    /// The templates: parsed at start-up and, with ``OperationsConfiguration/isDevelopment``, again when one changes.
    public var templates: TemplateLibrary { assembly.withLock { $0.templates } }
    /// The counters served at `/metrics`; with ``OperationsConfiguration/metrics`` `.off` nothing is counted.
    public let metrics: Metrics
    /// Where request and session lines go.
    public let logger: Logger
    /// Whether development features are on: template and stylesheet reload, detailed error pages.
    public var isDevelopment: Bool { operations.isDevelopment }
    package let sessions: SessionRegistry
    /// How screens are put together: the templates and the layout, replaced whole by a development reload.
    let assembly: Locked<ScreenAssembly>
    let routes = Locked<[ScreenRoute]>([])
    let notFoundRoute = Locked<ScreenRoute?>(nil)
    private let server: Locked<HTTPServer?> = Locked(nil)
    private let metricsServer: Locked<HTTPServer?> = Locked(nil)
    /// Whether requests, renders, patches and streams are counted (`OperationsConfiguration.metrics` is not `.off`).
    let keepsMetrics: Bool
    let readinessChecks = Locked<[(name: String, check: @Sendable () throws -> Void)]>([])
    private let isSweeping = Atomic<Bool>(false)
    private let configuration: ServerConfiguration
    let sessionConfiguration: SessionConfiguration
    let operations: OperationsConfiguration
    let root: String
    let viewRegistry: ViewRegistry
    let development = Locked(DevelopmentState())
    /// The client the pages load: its script, worker and stylesheet, at a versioned path.
    let clientAssets: ClientAssets
    /// How long posts and events are held back in development (`OperationsConfiguration.developmentLatency`).
    let developmentLatency: DispatchTimeInterval?
    /// The browsers' shared event streams, by id.
    let sharedStreams = Locked<[String: SharedStream]>([:])
    /// The sign-in ``use(_:)`` added, which fills every page's signed-in outlets.
    let signInState = Locked<SignIn?>(nil)

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
        guard sessions.eventBuffer > 0 else {
            throw ConfigurationError(
                "SessionConfiguration.eventBuffer is \(sessions.eventBuffer): a screen keeps at least one event.")
        }
        let registry = ViewRegistry()
        views(registry)
        let client = try ClientAssets()
        clientAssets = client
        assembly = Locked(
            try ScreenAssembly(
                templatesIn: root + "/Templates", registry: registry, clientHead: client.headMarkup,
                clientVersion: client.version, eventBuffer: sessions.eventBuffer))
        self.root = root
        viewRegistry = registry
        router = Router()
        self.operations = operations
        if operations.isDevelopment, let latency = operations.developmentLatency, latency > .zero {
            let (seconds, attoseconds) = latency.components
            developmentLatency = .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        } else {
            developmentLatency = nil
        }
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
        router.get(ClientAssets.prefix + ":version/:file") { [clientAssets] request in
            clientAssets.response(to: request)
        }
        router.post(ScreenWire.action.pattern) { [weak self] request in try self.served().performAction(request) }
        router.post(ScreenWire.input.pattern) { [weak self] request in try self.served().applyInput(request) }
        router.get(ScreenWire.page.pattern) { [weak self] request in try self.served().showSessionPage(request) }
        router.post(ScreenWire.close.pattern) { [weak self] request in try self.served().closeScreen(request) }
        router.get(ScreenWire.streams.pattern) { [weak self] request in try self.served().openSharedStream(request) }
        router.post(ScreenWire.attach.pattern) { [weak self] request in try self.served().attachScreen(request) }
        router.post(ScreenWire.detach.pattern) { [weak self] request in try self.served().detachScreen(request) }
        metrics.readSharedStreams { [sharedStreams = self.sharedStreams] in
            sharedStreams.withLock { $0.values.map(\.screenCount) }
        }
        router.get("/healthz") { _ in .text("ok\n") }
        router.get("/readyz") { [weak self] _ in try self.served().readiness() }
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

    /// Registers a screen at a path pattern (`/movies/:id`) with the factory that assembles it.
    ///
    /// The factory runs on the new screen's scheduler for every GET: it creates the view controller, its driver and
    /// its binder. Throw ``ScreenNotFound`` for a request naming nothing. The controller's `@Outlet`s are checked
    /// against its template now, so a mistake fails at start-up. `parent` is where `popViewController` goes.
    /// `guard` stands in front of the screen's GET, its action and input posts, and its rebuild from its URL.
    public func screen<Controller: ViewController>(
        _ pattern: String, _ type: Controller.Type, parent: String = "/", guard routeGuard: Guard? = nil,
        factory: @escaping @Sendable (ScreenRequest) throws -> Controller
    ) throws {
        let route = ScreenRoute(pattern: pattern, parent: parent, type: type, guard: routeGuard, factory: factory)
        try route.validate(templates)
        routes.withLock { $0.append(route) }
        router.get(pattern) { [weak self] request in
            try self.served().openScreen(route: route, request: request)
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
}

extension Application? {
    /// The application a route of its router serves, or a `503` when it was released while its server still ran (the
    /// routes hold it weakly: it owns them). Keep the `Application` as long as it serves; `run()` does.
    func served() throws -> Application {
        guard let self else {
            throw HTTPError(
                .serviceUnavailable,
                message: "The application was released while its server still ran; keep a reference to it.")
        }
        return self
    }
}
