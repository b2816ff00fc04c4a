internal import Foundation
public import Screenplay

/// The to-do app: the shared list at `/todos` behind the sign-in, on one ``TodoStore``.
///
/// ```swift
/// let options = ApplicationOptions.fromCommandLine(
///     program: "todos", options: TodoServer.options, defaultRoot: TodoServer.resourceRoot)
/// let server = try TodoServer(options: options)
/// try server.application.run()
/// ```
///
/// `Templates/`, `Public/` and `accounts.txt` ship as the target's resources, so `todos` runs from any folder;
/// `--root` chooses another folder holding `Templates/` and `Public/`, `--accounts` another accounts file.
public final class TodoServer: Sendable {
    /// The app's own options, after the common ones of ``ApplicationOptions``.
    public static let options: [ApplicationOptions.Option] = [
        .init(
            flag: "--accounts", environment: "TODO_ACCOUNTS", valueName: "FILE",
            help: "the accounts, lines “name pbkdf2-sha256$…”\n(default: the demo's, in the app's resources)"),
        .init(
            flag: "--signin-secret", environment: "SIGNIN_SECRET", valueName: "TEXT",
            help: "the key signing the sign-in cookies, 32 characters or more\n(default: a random one per process)"),
    ]

    /// The folder of the app's resources: `Templates/`, `Public/` and the demo's `accounts.txt`.
    public static var resourceRoot: String {
        Bundle.module.resourcePath ?? Bundle.module.bundlePath
    }

    /// The folder of the app's sources holding `Templates/` and `Public/`: with `--dev`, the app runs from it, so that
    /// a saved template shows at once (the resources are a copy made at build time).
    public static var sourceRoot: String {
        URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// The application: its routes are registered; start it with `run()` or `start()`.
    public let application: Application
    /// The list every screen shows.
    public let store: TodoStore
    /// Who may sign in, and who is.
    public let signIn: SignIn

    /// Registers the app's own view kinds, which its templates name with `data-view`: the application and the tests'
    /// harness call it.
    public static func registerViews(in registry: ViewRegistry) {
        registry.register(BadgeView.self, as: "BadgeView")
    }

    /// Builds the app as `options` say: parsed with `defaultRoot: TodoServer.resourceRoot`, the templates come from
    /// the resources unless `--root` names another folder.
    public init(options: ApplicationOptions, store: TodoStore = TodoStore()) throws {
        let accounts = try Accounts(contentsOf: options.values["--accounts"] ?? Self.resourceRoot + "/accounts.txt")
        let signIn = SignIn(accounts: accounts, secret: options.values["--signin-secret"])
        let application = try Application(options: options, views: Self.registerViews(in:))
        try application.use(signIn)
        try application.screen("/todos", TodoListViewController.self, guard: signIn.required) { request in
            TodoListViewController.make(store: store, user: signIn.user(for: request) ?? "someone")
        }
        application.router.get("/") { _ in .redirect(to: "/todos") }
        self.application = application
        self.store = store
        self.signIn = signIn
    }
}
