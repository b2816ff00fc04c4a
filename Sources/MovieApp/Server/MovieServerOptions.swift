internal import Foundation
internal import HTTPServer
public import Screenplay

/// The `movies` command line: flags, with environment variables as fallbacks.
public struct MovieServerOptions: Sendable, Equatable {
    /// The address to listen on (`--host`, `HOST`); default 127.0.0.1.
    public var host = "127.0.0.1"
    /// The port (`--port`, `PORT`); default 8080; 0 picks a free one.
    public var port = 8080
    /// Where `Templates/`, `Public/` and `Catalog/` are (`--root`, `SCREENPLAY_ROOT`); default the current folder.
    public var root = "."
    /// The SQLite file, or a `postgresql://` URL (`--database`, `DATABASE`); default `<root>/.data/movies.sqlite`.
    public var database: String?
    /// This instance's name in screen and stream ids, for a load balancer (`--instance`, `INSTANCE`); default none.
    public var instance = ""
    /// The catalog a new database is seeded from (`--catalog`, `CATALOG`); default `<root>/Catalog/movies.json`.
    public var catalog: String?
    /// `debug`, `info`, `warning` or `error` (`--log-level`, `LOG_LEVEL`); default `info`.
    public var logLevel = "info"
    /// The most screen sessions kept (`--max-sessions`, `MAX_SESSIONS`); default 10,000. Load tests raise it,
    /// since every page load opens a session.
    public var maxSessions = SessionConfiguration().capacity
    /// The most open connections, and the most open event streams (`--max-connections`, `MAX_CONNECTIONS`); default
    /// 10,000.
    public var maxConnections = ServerConfiguration().connectionLimit
    /// Log one line per request (`--access-log`, `ACCESS_LOG=1`; on by default, `--no-access-log` or `ACCESS_LOG=0`
    /// turns it off).
    public var accessLog = true
    /// `text` or `json` (`--log-format`, `LOG_FORMAT`); default `text`.
    public var logFormat = "text"
    /// `off`, `main` or a port number (`--metrics`, `METRICS`); default `main` (`/metrics` on the app's port).
    public var metrics = "main"
    /// Development mode (`--dev`, `SCREENPLAY_DEV=1`): reload templates and stylesheets, detailed error pages.
    public var isDevelopment = false
    /// Development mode only (`--dev-latency MS`, `SCREENPLAY_DEV_LATENCY`): every post and event held back this many
    /// milliseconds, as for a distant user.
    public var developmentLatency = 0

    /// The defaults.
    public init() {}

    /// Whether `database` names a PostgreSQL server rather than a SQLite file.
    public var usesPostgreSQL: Bool {
        database.map { $0.hasPrefix("postgresql://") || $0.hasPrefix("postgres://") } ?? false
    }

    /// The SQLite file to open.
    public var databasePath: String { database ?? root + "/.data/movies.sqlite" }
    /// The catalog file to seed from.
    public var catalogPath: String { catalog ?? root + "/Catalog/movies.json" }
    /// The host to print in the URL to open.
    public var displayHost: String { host == "127.0.0.1" || host == "0.0.0.0" ? "localhost" : host }

    /// A command line that cannot be run, or `--help`.
    public struct UsageError: Error, Sendable {
        /// What is wrong (or the usage, for `--help`).
        public let message: String
        /// Whether this is `--help` rather than a mistake.
        public let isHelp: Bool
    }

    /// What `movies --help` prints.
    public static let usage = """
        usage: movies [options]

          --host ADDRESS       address to listen on (env HOST; default 127.0.0.1)
          --port N             port to listen on, 0 for any free one (env PORT; default 8080)
          --root DIR           folder holding Templates/, Public/ and Catalog/ (env SCREENPLAY_ROOT; default .)
          --database FILE|URL  SQLite database file, or a postgresql://user:password@host/db URL; created and seeded
                               on first run (env DATABASE; default ROOT/.data/movies.sqlite)
          --instance NAME      this instance's name in screen ids, for a load balancer (env INSTANCE)
          --catalog FILE       catalog JSON a new database is seeded from (env CATALOG; default ROOT/Catalog/movies.json)
          --log-level LEVEL    debug, info, warning or error (env LOG_LEVEL; default info)
          --max-sessions N     screen sessions kept, least recently active ended first (env MAX_SESSIONS; default 10000)
          --max-connections N  open connections, and as many event streams (env MAX_CONNECTIONS; default 10000)
          --log-format FORMAT  text or json (env LOG_FORMAT; default text)
          --access-log         log one line per request to stderr, with its request id (env ACCESS_LOG=1; default on)
          --no-access-log      do not log requests (env ACCESS_LOG=0)
          --metrics WHERE      off, main (GET /metrics on --port) or a port of its own (env METRICS; default main)
          --dev                development mode: reload Templates/ and Public/ into open pages, detailed error
                               pages (env SCREENPLAY_DEV=1; never in production)
          --dev-latency MS     with --dev: hold every post and event back MS milliseconds, to try typing and
                               pending states as a distant user would (env SCREENPLAY_DEV_LATENCY; default 0)
          --help               show this help
        """

    /// Parses `arguments` (without the program name); flags win over `environment`.
    public static func parse(_ arguments: [String], environment: [String: String] = [:]) throws -> MovieServerOptions {
        var options = MovieServerOptions()
        if let host = environment["HOST"], !host.isEmpty { options.host = host }
        if let port = environment["PORT"], !port.isEmpty { options.port = try parsePort(port, source: "PORT") }
        if let root = environment["SCREENPLAY_ROOT"], !root.isEmpty { options.root = root }
        options.database = environment["DATABASE"].flatMap { $0.isEmpty ? nil : $0 }
        options.catalog = environment["CATALOG"].flatMap { $0.isEmpty ? nil : $0 }
        if let instance = environment["INSTANCE"], !instance.isEmpty { options.instance = instance }
        if let level = environment["LOG_LEVEL"], !level.isEmpty { options.logLevel = try parseLevel(level) }
        if let text = environment["MAX_SESSIONS"], !text.isEmpty {
            options.maxSessions = try parseCount(text, source: "MAX_SESSIONS")
        }
        if let text = environment["MAX_CONNECTIONS"], !text.isEmpty {
            options.maxConnections = try parseCount(text, source: "MAX_CONNECTIONS")
        }
        if let accessLog = environment["ACCESS_LOG"], !accessLog.isEmpty { options.accessLog = accessLog != "0" }
        if let format = environment["LOG_FORMAT"], !format.isEmpty { options.logFormat = try parseFormat(format) }
        if let metrics = environment["METRICS"], !metrics.isEmpty { options.metrics = try parseMetrics(metrics) }
        options.isDevelopment = environment["SCREENPLAY_DEV"] == "1"
        if let text = environment["SCREENPLAY_DEV_LATENCY"], !text.isEmpty {
            options.developmentLatency = try parseLatency(text, source: "SCREENPLAY_DEV_LATENCY")
        }

        var remaining = arguments[...]
        func value(for flag: String) throws -> String {
            guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                throw UsageError(message: "\(flag) needs a value", isHelp: false)
            }
            return value
        }
        while let argument = remaining.popFirst() {
            var flag = argument
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                flag = String(argument[..<equals])
                remaining.insert(String(argument[argument.index(after: equals)...]), at: remaining.startIndex)
            }
            switch flag {
            case "--help", "-h": throw UsageError(message: usage, isHelp: true)
            case "--host": options.host = try value(for: flag)
            case "--port": options.port = try parsePort(try value(for: flag), source: "--port")
            case "--root": options.root = try value(for: flag)
            case "--database": options.database = try value(for: flag)
            case "--catalog": options.catalog = try value(for: flag)
            case "--instance": options.instance = try value(for: flag)
            case "--log-level": options.logLevel = try parseLevel(try value(for: flag))
            case "--access-log": options.accessLog = true
            case "--max-sessions": options.maxSessions = try parseCount(try value(for: flag), source: flag)
            case "--max-connections": options.maxConnections = try parseCount(try value(for: flag), source: flag)
            case "--no-access-log": options.accessLog = false
            case "--log-format": options.logFormat = try parseFormat(try value(for: flag))
            case "--metrics": options.metrics = try parseMetrics(try value(for: flag))
            case "--dev": options.isDevelopment = true
            case "--dev-latency": options.developmentLatency = try parseLatency(try value(for: flag), source: flag)
            default: throw UsageError(message: "unknown option \(argument)", isHelp: false)
            }
        }
        if options.developmentLatency > 0 && !options.isDevelopment {
            throw UsageError(message: "--dev-latency is for development mode only: add --dev", isHelp: false)
        }
        return options
    }

    private static func parseLatency(_ text: String, source: String) throws -> Int {
        guard let milliseconds = Int(text), (0...10_000).contains(milliseconds) else {
            throw UsageError(message: "\(source) must be milliseconds from 0 to 10000, got \(text)", isHelp: false)
        }
        return milliseconds
    }

    private static func parsePort(_ text: String, source: String) throws -> Int {
        guard let port = Int(text), (0...65535).contains(port) else {
            throw UsageError(message: "\(source) must be a port number from 0 to 65535, got \(text)", isHelp: false)
        }
        return port
    }

    private static func parseCount(_ text: String, source: String) throws -> Int {
        guard let count = Int(text), count > 0 else {
            throw UsageError(message: "\(source) must be a positive whole number, got \(text)", isHelp: false)
        }
        return count
    }

    private static func parseLevel(_ text: String) throws -> String {
        guard ["debug", "info", "warning", "error"].contains(text) else {
            throw UsageError(message: "--log-level must be debug, info, warning or error, got \(text)", isHelp: false)
        }
        return text
    }

    private static func parseFormat(_ text: String) throws -> String {
        guard Logger.Format(rawValue: text) != nil else {
            throw UsageError(message: "--log-format must be text or json, got \(text)", isHelp: false)
        }
        return text
    }

    private static func parseMetrics(_ text: String) throws -> String {
        guard text == "off" || text == "main" || (Int(text).map { (0...65535).contains($0) } ?? false) else {
            throw UsageError(message: "--metrics must be off, main or a port number, got \(text)", isHelp: false)
        }
        return text
    }

    /// The operations settings these options describe: log, metrics endpoint, development mode.
    public var operations: OperationsConfiguration {
        OperationsConfiguration(
            metrics: metrics == "off" ? .off : metrics == "main" ? .main : .port(Int(metrics) ?? 0),
            logger: Logger(
                level: Logger.Level(name: logLevel) ?? .info, format: Logger.Format(rawValue: logFormat) ?? .text),
            isDevelopment: isDevelopment,
            developmentLatency: developmentLatency > 0 ? .milliseconds(developmentLatency) : nil)
    }

    /// Checks that the root holds what the server needs, with a message that says what to do.
    public func checkRoot() throws {
        var isDirectory: ObjCBool = false
        for folder in ["Templates", "Public"] {
            let path = root + "/" + folder
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw UsageError(
                    message:
                        "\(path) not found. Run movies from the repository's top folder or pass --root DIR.",
                    isHelp: false)
            }
        }
    }
}
