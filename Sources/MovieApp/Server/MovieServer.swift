internal import Foundation
internal import HTTPServer
internal import Reactive
public import Screenplay
internal import ViewKit

/// The movie catalog app: the SQLite store, the list and MovieDetail screens, the JSON API, on one server.
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
                url: url, seedingFrom: options.catalogPath, logger: options.operations.logger)
        } else {
            store = try SQLiteMovieStore(path: options.databasePath, seedingFrom: options.catalogPath)
        }
        try self.init(options: options, store: store, sessions: options.application.sessions)
    }

    /// Serves `store`, for tests with a store of their own.
    public init(options: MovieServerOptions, store: any MovieStore, sessions: SessionConfiguration = .init()) throws {
        let server = options.application.server
        self.store = store
        application = try Application(
            root: options.root, server: server, sessions: sessions, operations: options.operations,
            views: Self.register)
        let signIn = SignIn(accounts: try Accounts(contentsOf: options.accountsPath), secret: options.signInSecret)
        self.signIn = signIn
        try application.use(signIn)
        let readScheduler = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        try application.screen("/", MovieListViewController.self) { request in
            MovieListViewController.make(store: store, request: request)
        }
        try application.screen("/movies", MovieListViewController.self) { request in
            MovieListViewController.make(store: store, request: request)
        }
        try application.screen("/movies/:id", MovieDetailViewController.self, parent: "/") { request in
            try MovieDetailViewController.make(request: request, store: store, readScheduler: readScheduler)
        }
        // Changing a movie needs a signed-in user; reading does not.
        try application.screen("/movies/:id/edit", MovieEditViewController.self, parent: "/", guard: signIn.required) {
            request in
            try MovieEditViewController.make(request: request, store: store)
        }
        try application.notFoundScreen(NotFoundViewController.self) { request in
            NotFoundViewController.make(request: request)
        }
        MovieAPI(store: store).register(on: application.router, token: options.apiToken)
        // Ready when the store answers a cheap read; a deleted or locked database file makes this fail.
        application.addReadinessCheck("store") { _ = try store.movie(id: 1) }
        let kind = store is PostgreSQLMovieStore ? "postgresql" : "sqlite"
        application.metrics.addCollector {
            var text = "# HELP movies_store_info The store the movies live in.\n# TYPE movies_store_info gauge\n"
            text += "movies_store_info{kind=\"\(kind)\"} 1\n"
            if let store = store as? PostgreSQLMovieStore { text += store.statistics.exposition() }
            return text
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
        (store as? PostgreSQLMovieStore)?.close()
    }
}
