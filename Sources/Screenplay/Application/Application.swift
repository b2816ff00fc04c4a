internal import Dispatch
internal import FoundationEssentials
public import HTTPServer
import Primitives
internal import Reactive
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
/// from `<root>/Public` under `/public/`. Every GET of a screen route opens a session; its page speaks the wire
/// protocol (`ScreenWire`, and the DocC article "The wire protocol") with it.
public final class Application: Sendable {
    /// The router; add your own routes (an API, say) before ``start()``.
    public let router: Router
    /// The templates: parsed at start-up and, with ``OperationsConfiguration/isDevelopment``, again when one changes.
    public var templates: TemplateLibrary { screens.templates }
    /// The counters served at `/metrics`; with ``OperationsConfiguration/metrics`` `.off` nothing is counted.
    public let metrics: Metrics
    /// Where request and session lines go.
    public let logger: Logger
    /// Whether development features are on: template and stylesheet reload, detailed error pages.
    public var isDevelopment: Bool { operations.isDevelopment }
    package let sessions: SessionRegistry
    /// The screen routes, and the building of their screens.
    let screens: ScreenRouter
    /// Action, input and close posts, and a session's page.
    let actions: ScreenActions
    /// The browsers' shared event streams.
    private let streams: SharedStreams
    /// Template and stylesheet reload (watching only in development).
    private let development: DevelopmentReload
    /// `/readyz`, `/metrics` and its server.
    private let monitoring: Monitoring
    /// Ends idle sessions, and runs the application's periodic chores (removing expired uploads).
    let sweep: SessionSweep
    private let server: Locked<HTTPServer?> = Locked(nil)
    /// The way to the other instances, once ``connectInstances(through:)`` gave one.
    let instances: InstanceLink
    private let configuration: ServerConfiguration
    private let operations: OperationsConfiguration

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
        if let secret = sessions.tokenSecret, secret.utf8.count < 32 {
            throw ConfigurationError(
                "SessionConfiguration.tokenSecret has \(secret.utf8.count) characters: a key that signs pages' tokens "
                    + "has 32 or more (make one with `openssl rand -hex 32`).")
        }
        guard sessions.eventBuffer > 0 else {
            throw ConfigurationError(
                "SessionConfiguration.eventBuffer is \(sessions.eventBuffer): a screen keeps at least one event.")
        }
        let viewRegistry = ViewRegistry()
        views(viewRegistry)
        let clientAssets = try ClientAssets()
        let assembly = try ScreenAssembly(
            templatesIn: root + "/Templates", registry: viewRegistry, clientHead: clientAssets.headMarkup,
            clientVersion: clientAssets.version, eventBuffer: sessions.eventBuffer)
        let router = Router()
        self.router = router
        self.operations = operations
        let developmentLatency = Self.developmentLatency(operations)
        let logger = operations.logger
        self.logger = logger
        let registry = SessionRegistry(
            configuration: sessions,
            onEnd: { session, reason in
                logger.log(
                    .info, "session.ended",
                    ["session": session.id, "path": ScreenRequest.path(of: session.url), "reason": reason.rawValue])
            })
        self.sessions = registry
        instances = InstanceLink(instanceName: sessions.instanceName, logger: logger)
        let metrics = Metrics()
        self.metrics = metrics
        let keepsMetrics = operations.metrics != .off
        var configuration = server
        // The application writes the request line itself, with the request id and in the chosen format.
        configuration.accessLog = false
        configuration.requestObserver = Monitoring.requestObserver(
            metrics: keepsMetrics ? metrics : nil, logsRequests: server.accessLog, logger: logger)
        self.configuration = configuration
        let screens = ScreenRouter(
            assembly: assembly, sessions: registry, configuration: sessions, metrics: keepsMetrics ? metrics : nil,
            eventDelay: developmentLatency, logger: logger, isDevelopment: operations.isDevelopment)
        self.screens = screens
        actions = ScreenActions(sessions: registry, router: screens, postDelay: developmentLatency)
        let development = DevelopmentReload(
            root: root, operations: operations, viewRegistry: viewRegistry, clientAssets: clientAssets,
            eventBuffer: sessions.eventBuffer, router: screens, sessions: registry, logger: logger)
        self.development = development
        let streams = SharedStreams(
            sessions: registry, router: screens, development: development, configuration: sessions,
            clientVersion: clientAssets.version, metrics: keepsMetrics ? metrics : nil, logger: logger)
        self.streams = streams
        monitoring = Monitoring(metrics: metrics, logger: logger, router: screens)
        sweep = SessionSweep(sessions: registry)
        metrics.readSessions(open: { [registry] in registry.count }, evicted: { [registry] in registry.evictedCount })
        metrics.readSharedStreams { [weak streams] in streams?.screenCounts ?? [] }
        metrics.addCollector { [recentRenders = screens.recentRenders] in recentRenders.exposition() }
        router.serveFiles(at: "/public", from: root + "/Public")
        router.get(ClientAssets.prefix + ":version/:file") { [clientAssets] request in
            clientAssets.response(to: request)
        }
        // The routes hold the application weakly: it owns the router (see `served()`).
        router.post(ScreenWire.action.pattern) { [weak self] in try self.served().actions.performAction($0) }
        router.post(ScreenWire.input.pattern) { [weak self] in try self.served().actions.applyInput($0) }
        router.get(ScreenWire.page.pattern) { [weak self] in try self.served().actions.showSessionPage($0) }
        router.post(ScreenWire.close.pattern) { [weak self] in try self.served().actions.closeScreen($0) }
        router.post(ScreenWire.rows.pattern) { [weak self] in try self.served().actions.showTableRows($0) }
        router.get(ScreenWire.streams.pattern) { [weak self] in try self.served().streams.openSharedStream($0) }
        router.post(ScreenWire.attach.pattern) { [weak self] in try self.served().streams.attachScreen($0) }
        router.post(ScreenWire.detach.pattern) { [weak self] in try self.served().streams.detachScreen($0) }
        router.get("/healthz") { _ in .text("ok\n") }
        router.get("/readyz") { [weak self] _ in try self.served().monitoring.readiness() }
        if operations.metrics == .main {
            router.get("/metrics") { _ in Monitoring.metricsResponse(metrics) }
        }
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
        try screens.add(route)
        router.get(pattern) { [weak self] request in
            try self.served().screens.open(route, request: request)
        }
    }

    /// Registers the screen shown, with status 404, for unknown URLs and for factories that throw ``ScreenNotFound``.
    public func notFoundScreen<Controller: ViewController>(
        _ type: Controller.Type, factory: @escaping @Sendable (ScreenRequest) throws -> Controller
    ) throws {
        try screens.setNotFound(ScreenRoute(pattern: "/", parent: "/", type: type, factory: factory))
    }

    /// Adds a check `/readyz` runs: it throws while the app cannot serve (a store that cannot be read, say).
    ///
    /// ```swift
    /// app.addReadinessCheck("store") { _ = try store.movie(id: 1) }
    /// ```
    public func addReadinessCheck(_ name: String, _ check: @escaping @Sendable () throws -> Void) {
        monitoring.addReadinessCheck(name, check)
    }

    /// Re-parses the templates; applies them to every open screen, or reports why they cannot be used (see
    /// ``OperationsConfiguration/isDevelopment``).
    package func reloadTemplates() {
        development.reloadTemplates()
    }

    // MARK: Serving

    /// Starts the server; returns once it listens.
    public func start() throws {
        let server = HTTPServer(configuration: configuration, router: router)
        try server.start()
        self.server.withLock { $0 = server }
        if case .port(let port) = operations.metrics {
            do { try monitoring.startMetricsServer(host: configuration.host, port: port) } catch {
                stop()
                throw error
            }
        }
        sweep.start()
        if operations.isDevelopment { development.start() }
        logger.log(.info, "server.started", ["port": String(port), "development": String(operations.isDevelopment)])
    }

    /// The port `/metrics` is served on when ``OperationsConfiguration/metrics`` is `.port`; 0 otherwise.
    public var metricsPort: Int { monitoring.metricsPort }

    /// How many screen sessions are open.
    public var openSessionCount: Int { sessions.count }

    /// How many sessions ended by expiry or by the cap.
    public var evictedSessionCount: Int { sessions.evictedCount }

    /// The port the server listens on (after ``start()``).
    public var port: Int { server.withLock { $0?.port ?? 0 } }

    /// Stops the server gracefully and ends every screen.
    public func stop() {
        sweep.stop()
        development.stop()
        let server = self.server.withLock { server in
            defer { server = nil }
            return server
        }
        sessions.endAll()
        server?.stop()
        monitoring.stopMetricsServer()
        instances.stop()
    }

    /// Lets this instance reach the screens other instances of the app hold, and theirs reach its own, through
    /// `messenger` (a bus they share: the demo's PostgreSQL store gives one over `NOTIFY`). Today it carries the
    /// events of uploads: a tus request the proxy sends to another instance than the upload's screen's is taken
    /// there (the page's token checked, no second screen built), and its `rx.file` events go to the screen on its
    /// own instance. Call it once, before ``start()``, with ``SessionConfiguration/instanceName`` set.
    ///
    /// - Throws: ``ConfigurationError`` without an instance name or on a second call; what `messenger` throws when
    ///   its bus cannot be reached.
    public func connectInstances(through messenger: any InstanceMessenger) throws {
        try instances.connect(messenger)
    }
}

extension Application {
    /// How long posts and events are held back: `OperationsConfiguration.developmentLatency`, in development only.
    private static func developmentLatency(_ operations: OperationsConfiguration) -> DispatchTimeInterval? {
        guard operations.isDevelopment, let latency = operations.developmentLatency, latency > .zero else {
            return nil
        }
        let (seconds, attoseconds) = latency.components
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
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
