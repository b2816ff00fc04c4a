internal import FoundationEssentials
internal import HTTPServer
public import Screenplay

/// The `movies` command line: every app's options (``ApplicationOptions``) and the demo's own, `--database` and
/// `--catalog`, with environment variables as fallbacks.
@dynamicMemberLookup
public struct MovieServerOptions: Sendable, Equatable {
    /// The options every Screenplay app takes: host, port, root, logs, metrics, development mode…
    public var application = ApplicationOptions(program: "movies")
    /// The SQLite file, or a `postgresql://` URL (`--database`, `DATABASE`); default `<root>/.data/movies.sqlite`.
    public var database: String?
    /// The catalog a new database is seeded from (`--catalog`, `CATALOG`); default `<root>/Catalog/movies.json`.
    public var catalog: String?
    /// The bearer token the JSON API requires (`--api-token`, `API_TOKEN`); without one the API is open.
    public var apiToken: String?
    /// The accounts file of the sign-in (`--accounts`, `ACCOUNTS`); default `<root>/Catalog/accounts.txt`.
    public var accounts: String?
    /// The key sign-in cookies are signed with (`--signin-secret`, `SIGNIN_SECRET`). Without one the key is the
    /// store's (``MovieStore/signInKey()``), made once and kept with the movies: sign-ins survive a restart, and every
    /// instance on one database shares it.
    public var signInSecret: String?
    /// At most how many connections a PostgreSQL store queries on at once (`--database-connections`,
    /// `DATABASE_CONNECTIONS`); default ``PostgreSQLMovieStore/defaultConnections``. Unused with SQLite.
    public var databaseConnections = PostgreSQLMovieStore.defaultConnections

    /// The defaults.
    public init() {}

    /// The common options, read and set as if they were this type's own (`options.port`).
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<ApplicationOptions, Value>) -> Value {
        get { application[keyPath: keyPath] }
        set { application[keyPath: keyPath] = newValue }
    }

    /// The common options' derived values (`options.displayHost`).
    public subscript<Value>(dynamicMember keyPath: KeyPath<ApplicationOptions, Value>) -> Value {
        application[keyPath: keyPath]
    }

    /// Whether `database` names a PostgreSQL server rather than a SQLite file.
    public var usesPostgreSQL: Bool {
        database.map { $0.hasPrefix("postgresql://") || $0.hasPrefix("postgres://") } ?? false
    }

    /// The SQLite file to open.
    public var databasePath: String { database ?? application.root + "/.data/movies.sqlite" }
    /// The catalog file to seed from.
    public var catalogPath: String { catalog ?? application.root + "/Catalog/movies.json" }
    /// The accounts file to read.
    public var accountsPath: String { accounts ?? application.root + "/Catalog/accounts.txt" }

    /// A command line that cannot be run, or `--help`.
    public typealias UsageError = ApplicationOptions.UsageError

    /// The demo's own options.
    static let options = [
        ApplicationOptions.Option(
            flag: "--database", environment: "DATABASE", valueName: "FILE|URL",
            help: "SQLite database file, or a postgresql://user:password@host/db URL; created and seeded\n"
                + "on first run (default ROOT/.data/movies.sqlite)"),
        ApplicationOptions.Option(
            flag: "--database-connections", environment: "DATABASE_CONNECTIONS", valueName: "N",
            help: "with PostgreSQL: at most N connections for queries at once, besides the listener's\n"
                + "(default \(PostgreSQLMovieStore.defaultConnections))"),
        ApplicationOptions.Option(
            flag: "--catalog", environment: "CATALOG", valueName: "FILE",
            help: "catalog JSON a new database is seeded from (default ROOT/Catalog/movies.json)"),
        ApplicationOptions.Option(
            flag: "--api-token", environment: "API_TOKEN", valueName: "TOKEN",
            help: "require Authorization: Bearer TOKEN on the JSON API (/api/…); without it the API is\nopen"),
        ApplicationOptions.Option(
            flag: "--accounts", environment: "ACCOUNTS", valueName: "FILE",
            help: "the sign-in's accounts, lines of “name pbkdf2-sha256$…” (default ROOT/Catalog/accounts.txt)"),
        ApplicationOptions.Option(
            flag: "--signin-secret", environment: "SIGNIN_SECRET", valueName: "SECRET",
            help: "the key sign-in cookies are signed with, 32 characters or more (default: a random key\n"
                + "made once and kept in the database, shared by every instance on it)"),
    ]
    static let rootHolds = "Templates/, Public/ and Catalog/"

    /// What `movies --help` prints.
    public static let usage = ApplicationOptions.usage(program: "movies", options: options, rootHolds: rootHolds)

    /// Parses `arguments` (without the program name); flags win over `environment`.
    public static func parse(_ arguments: [String], environment: [String: String] = [:]) throws -> MovieServerOptions {
        var options = MovieServerOptions()
        options.application = try ApplicationOptions.parse(
            arguments, environment: environment, program: "movies", options: Self.options, rootHolds: rootHolds)
        options.database = options.application.values["--database"]
        options.catalog = options.application.values["--catalog"]
        if let connections = options.application.values["--database-connections"] {
            guard let count = Int(connections), (1...1000).contains(count) else {
                throw UsageError(message: "--database-connections must be a number from 1 to 1000", isHelp: false)
            }
            options.databaseConnections = count
        }
        options.apiToken = options.application.values["--api-token"]
        options.accounts = options.application.values["--accounts"]
        options.signInSecret = options.application.values["--signin-secret"]
        if let secret = options.signInSecret, secret.utf8.count < 32 {
            throw UsageError(message: "--signin-secret must be at least 32 characters", isHelp: false)
        }
        if let token = options.apiToken, token.utf8.count < 16 {
            throw UsageError(message: "--api-token must be at least 16 characters", isHelp: false)
        }
        return options
    }

    /// The operations settings these options describe: log, metrics endpoint, development mode.
    public var operations: OperationsConfiguration { application.operations }

    /// Checks that the root holds what the server needs, with a message that says what to do.
    public func checkRoot() throws {
        var isDirectory = false
        for folder in ["Templates", "Public"] {
            let path = application.root + "/" + folder
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory else {
                throw UsageError(
                    message:
                        "\(path) not found. Run movies from the repository's top folder or pass --root DIR.",
                    isHelp: false)
            }
        }
    }
}
