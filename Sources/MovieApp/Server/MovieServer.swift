internal import FoundationEssentials
internal import HTTPServer
internal import Reactive
public import Screenplay
internal import ViewKit

/// The movie catalog app: the store (SQLite or PostgreSQL), the list, detail and edit screens, the sign-in and the
/// JSON API, on one server.
///
/// ```swift
/// let server = try MovieServer(options: MovieServerOptions.parse(arguments))
/// try server.start()
/// ```
public final class MovieServer: Sendable {
    /// The screens' application (router, templates, sessions).
    public let application: Application
    /// The store the screens and the API share.
    public let store: any MovieStore
    /// The sign-in the editing screen requires.
    public let signIn: SignIn

    /// Opens the store (creating and seeding it on first run) and registers the screens and the API.
    public convenience init(options: MovieServerOptions) throws {
        try options.checkRoot()
        let store: any MovieStore
        if options.usesPostgreSQL, let url = options.database {
            store = try PostgreSQLMovieStore(
                url: url, seedingFrom: options.catalogPath, connections: options.databaseConnections,
                logger: options.operations.logger)
        } else {
            store = try SQLiteMovieStore(path: options.databasePath, seedingFrom: options.catalogPath)
        }
        try self.init(options: options, store: store, sessions: options.application.sessions)
    }

    /// Serves `store`, for tests with a store of their own.
    public init(options: MovieServerOptions, store: any MovieStore, sessions: SessionConfiguration = .init()) throws {
        let server = options.application.server
        self.store = store
        let secret = options.signInSecret ?? Self.signInKey(of: store, logger: options.operations.logger)
        // Pages' tokens are signed with the same kept secret, so that a page rendered before a restart, or by another
        // instance on the same database, goes live without a reset.
        var sessions = sessions
        if sessions.tokenSecret == nil { sessions.tokenSecret = secret }
        application = try Application(
            root: options.root, server: server, sessions: sessions, operations: options.operations,
            views: Self.register)
        let signIn = SignIn(accounts: try Accounts(contentsOf: options.accountsPath), secret: secret)
        self.signIn = signIn
        try application.use(signIn)
        // The store's reads and writes that screens start and must not wait on (a re-read, keeping a poster).
        let storeScheduler = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        try application.screen("/", MovieListViewController.self) { request in
            MovieListViewController.make(store: store, request: request)
        }
        try application.screen("/movies", MovieListViewController.self) { request in
            MovieListViewController.make(store: store, request: request)
        }
        try application.screen("/movies/:id", MovieDetailViewController.self, parent: "/") { request in
            try MovieDetailViewController.make(request: request, store: store, readScheduler: storeScheduler)
        }
        // Changing a movie needs a signed-in user; reading does not.
        try application.screen("/movies/:id/edit", MovieEditViewController.self, parent: "/", guard: signIn.required) {
            request in
            try MovieEditViewController.make(request: request, store: store, writeScheduler: storeScheduler)
        }
        try application.notFoundScreen(NotFoundViewController.self) { request in
            NotFoundViewController.make(request: request)
        }
        // Resumable uploads (tus) at /uploads, kept where every instance on the store can resume them; a poster must
        // be an image, whatever its name says.
        var uploads = options.application.uploads
        uploads.accepts["poster"] = [.png, .jpeg, .webp]
        try application.acceptUploads(uploads, storage: store.uploadStorage)
        // Named instances on one database reach each other's screens: an upload's requests may land on another
        // instance than its screen's.
        if !options.application.instance.isEmpty, let messenger = store.instanceMessenger() {
            try application.connectInstances(through: messenger)
        }
        if let posters = store as? any MoviePosters { PosterRoute(posters: posters).register(on: application.router) }
        MovieAPI(store: store).register(on: application.router, token: options.apiToken)
        MovieCSVExport(store: store).register(on: application.router)
        // Ready when the store answers a cheap read; a deleted or locked database file makes this fail.
        application.addReadinessCheck("store") { _ = try store.movie(id: 1) }
        application.metrics.addCollector { store.metricsExposition() }
    }

    /// The store's sign-in key, kept with the movies, so that a restart, or another instance on the same database,
    /// keeps everyone signed in. A store that cannot give one (its storage failing) leaves the sign-in a key of this
    /// process, as the screens are left their error states: the server still serves, and says so in the log.
    private static func signInKey(of store: any MovieStore, logger: Logger) -> String? {
        do {
            return try store.signInKey()
        } catch {
            logger.log(
                .warning, "signin.key_unavailable",
                ["error": "\(error)", "effect": "sign-ins last until this process ends; give --signin-secret"])
            return nil
        }
    }

    /// Registers the app's custom views for `data-view`.
    static func register(_ registry: ViewRegistry) {
        registry.register(MovieHeaderView.self, as: "MovieHeaderView")
        registry.register(MovieTipsView.self, as: "MovieTipsView")
    }

    /// Starts serving; returns once the server listens.
    public func start() throws {
        try application.start()
    }

    /// The port the server listens on.
    public var port: Int { application.port }

    /// Stops the server gracefully.
    public func stop() {
        application.stop()
        store.close()
    }
}
