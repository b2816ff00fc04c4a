internal import FoundationEssentials
internal import Glibc
public import HTTPServer
internal import Primitives

/// The command line every Screenplay app takes — `--host --port --root --dev --dev-latency --log-level --log-format
/// --access-log --metrics --max-sessions --max-connections --instance --help` — with environment variables as
/// fallbacks, plus the options an app declares of its own.
///
/// ```swift
/// let options = ApplicationOptions.fromCommandLine(program: "todo")   // --help, or a mistake: usage, then exit
/// let app = try Application(options: options)
/// try app.screen("/", TodoViewController.self) { _ in TodoViewController.make() }
/// try app.run()                                                       // until Ctrl-C or SIGTERM
/// ```
public struct ApplicationOptions: Sendable, Equatable {
    /// The program's name, in the usage and in messages.
    public var program: String
    /// The address to listen on (`--host`, `HOST`); default 127.0.0.1.
    public var host = "127.0.0.1"
    /// The port (`--port`, `PORT`); default 8080; 0 picks a free one.
    public var port = 8080
    /// The folder holding `Templates/` and `Public/` (`--root`, `SCREENPLAY_ROOT`); default the current folder.
    public var root = "."
    /// This instance's name in screen and stream ids, for a load balancer (`--instance`, `INSTANCE`); default none.
    public var instance = ""
    /// `debug`, `info`, `warning` or `error` (`--log-level`, `LOG_LEVEL`); default `info`.
    public var logLevel = "info"
    /// The most screen sessions kept (`--max-sessions`, `MAX_SESSIONS`); default 10,000.
    public var maxSessions = SessionConfiguration().capacity
    /// The most open connections, and so event streams (`--max-connections`, `MAX_CONNECTIONS`); default 10,000.
    public var maxConnections = ServerConfiguration().connectionLimit
    /// Log one line per request (`--access-log`, `ACCESS_LOG=1`, on by default; `--no-access-log`, `ACCESS_LOG=0`).
    public var accessLog = true
    /// `text` or `json` (`--log-format`, `LOG_FORMAT`); default `text`.
    public var logFormat = "text"
    /// `off`, `main` or a port number (`--metrics`, `METRICS`); default `main` (`/metrics` on the app's port).
    public var metrics = "main"
    /// Development mode (`--dev`, `SCREENPLAY_DEV=1`): reload templates and stylesheets, detailed error pages.
    public var isDevelopment = false
    /// With `--dev`: every post and event held back this many milliseconds (`--dev-latency MS`,
    /// `SCREENPLAY_DEV_LATENCY`), as for a distant user.
    public var developmentLatency = 0
    /// The folder resumable uploads are kept in (`--upload-folder`, `UPLOAD_FOLDER`); default `<root>/.data/uploads`.
    public var uploadFolder: String?
    /// The largest upload, in bytes (`--upload-max-size`, `UPLOAD_MAX_SIZE`, with an optional `K`, `M` or `G`
    /// suffix for KiB, MiB, GiB); default 64 MiB. Announced as `Tus-Max-Size`.
    public var uploadMaxSize = UploadConfiguration(folder: "").maxSize
    /// What live uploads may take together, in bytes (`--upload-quota`, `UPLOAD_QUOTA`, suffixes as above); default
    /// 1 GiB.
    public var uploadQuota = UploadConfiguration(folder: "").quota
    /// The values of the app's own options, by flag (`--database`), from the command line or their variables.
    public var values: [String: String] = [:]

    /// The defaults, for `program`.
    public init(program: String) {
        self.program = program
    }

    /// An option an app adds to the common ones: a flag with a value, and the environment variable it falls back to.
    public struct Option: Sendable, Equatable {
        /// The flag, `--database`.
        public var flag: String
        /// The environment variable read when the flag is absent, or `nil`.
        public var environment: String?
        /// The value's name in the usage, `FILE|URL`.
        public var valueName: String
        /// What it does, for the usage (wrapped lines are indented by the usage).
        public var help: String

        public init(flag: String, environment: String? = nil, valueName: String, help: String) {
            self.flag = flag
            self.environment = environment
            self.valueName = valueName
            self.help = help
        }
    }

    /// A command line that cannot be run, or `--help`.
    public struct UsageError: Error, Sendable, CustomStringConvertible {
        /// What is wrong (or the usage, for `--help`).
        public let message: String
        /// Whether this is `--help` rather than a mistake.
        public let isHelp: Bool

        public init(message: String, isHelp: Bool) {
            self.message = message
            self.isHelp = isHelp
        }

        public var description: String { message }
    }

    /// The usage `--help` prints: the app's options first, then the common ones.
    public static func usage(
        program: String, options extra: [Option] = [], rootHolds: String = "Templates/ and Public/",
        defaultRoot: String = "."
    )
        -> String
    {
        var lines = ["usage: \(program) [options]", ""]
        func line(_ flag: String, _ help: String) {
            let padded = flag.count < 21 ? flag + String(repeating: " ", count: 21 - flag.count) : flag + " "
            let wrapped = help.split(separator: "\n", omittingEmptySubsequences: false)
            lines.append("  " + padded + (wrapped.first ?? ""))
            for rest in wrapped.dropFirst() { lines.append(String(repeating: " ", count: 23) + rest) }
        }
        line("--host ADDRESS", "address to listen on (env HOST; default 127.0.0.1)")
        line("--port N", "port to listen on, 0 for any free one (env PORT; default 8080)")
        let rootDefault = defaultRoot == "." ? "." : "the app's resources"
        line("--root DIR", "folder holding \(rootHolds) (env SCREENPLAY_ROOT; default \(rootDefault))")
        for option in extra {
            let environment = option.environment.map { " (env \($0))" } ?? ""
            line(option.flag + " " + option.valueName, option.help + environment)
        }
        line("--instance NAME", "this instance's name in screen ids, for a load balancer (env INSTANCE)")
        line("--log-level LEVEL", "debug, info, warning or error (env LOG_LEVEL; default info)")
        line(
            "--max-sessions N",
            "screen sessions kept, least recently active ended first (env MAX_SESSIONS; default 10000)")
        line("--max-connections N", "open connections, and as many event streams (env MAX_CONNECTIONS; default 10000)")
        line(
            "--upload-folder DIR",
            "folder resumable uploads are kept in (env UPLOAD_FOLDER; default ROOT/.data/uploads)")
        line("--upload-max-size N", "largest upload in bytes, or with K, M or G (env UPLOAD_MAX_SIZE; default 64M)")
        line("--upload-quota N", "what live uploads may take together (env UPLOAD_QUOTA; default 1G)")
        line("--log-format FORMAT", "text or json (env LOG_FORMAT; default text)")
        line("--access-log", "log one line per request to stderr, with its request id (env ACCESS_LOG=1; default on)")
        line("--no-access-log", "do not log requests (env ACCESS_LOG=0)")
        line("--metrics WHERE", "off, main (GET /metrics on --port) or a port of its own (env METRICS; default main)")
        line("--dev", "development mode: reload Templates/ and Public/ into open pages, detailed error")
        lines.append(String(repeating: " ", count: 23) + "pages (env SCREENPLAY_DEV=1; never in production)")
        line("--dev-latency MS", "with --dev: hold every post and event back MS milliseconds, to try typing and")
        lines.append(
            String(repeating: " ", count: 23)
                + "pending states as a distant user would (env SCREENPLAY_DEV_LATENCY; default 0)")
        line("--help", "show this help")
        return lines.joined(separator: "\n")
    }

    /// Parses `arguments` (without the program name); flags win over `environment`. `defaultRoot` is the root when
    /// neither names one: an app that ships its templates as SwiftPM resources passes its bundle's
    /// (`Bundle.module.resourcePath`), so that it runs from any folder. `developmentRoot` is the root with `--dev`
    /// when neither names one: the folder of the app's sources that holds `Templates/` and `Public/` (found from
    /// `#filePath`), so that development mode watches the files being edited rather than the copy in the build folder.
    ///
    /// ```swift
    /// let options = ApplicationOptions.fromCommandLine(
    ///     program: "todos", defaultRoot: Bundle.module.resourcePath ?? ".",
    ///     developmentRoot: URL(filePath: #filePath).deletingLastPathComponent().path)
    /// ```
    public static func parse(
        _ arguments: [String], environment: [String: String] = [:], program: String, options extra: [Option] = [],
        rootHolds: String = "Templates/ and Public/", defaultRoot: String = ".", developmentRoot: String? = nil
    ) throws(UsageError) -> ApplicationOptions {
        var options = ApplicationOptions(program: program)
        options.root = defaultRoot
        func variable(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        var rootNamed = variable("SCREENPLAY_ROOT") != nil
        if let host = variable("HOST") { options.host = host }
        if let port = variable("PORT") { options.port = try parsePort(port, source: "PORT") }
        if let root = variable("SCREENPLAY_ROOT") { options.root = root }
        if let instance = variable("INSTANCE") { options.instance = instance }
        if let level = variable("LOG_LEVEL") { options.logLevel = try parseLevel(level) }
        if let text = variable("MAX_SESSIONS") { options.maxSessions = try parseCount(text, source: "MAX_SESSIONS") }
        if let text = variable("MAX_CONNECTIONS") {
            options.maxConnections = try parseCount(text, source: "MAX_CONNECTIONS")
        }
        if let folder = variable("UPLOAD_FOLDER") { options.uploadFolder = folder }
        if let text = variable("UPLOAD_MAX_SIZE") {
            options.uploadMaxSize = try parseSize(text, source: "UPLOAD_MAX_SIZE")
        }
        if let text = variable("UPLOAD_QUOTA") { options.uploadQuota = try parseSize(text, source: "UPLOAD_QUOTA") }
        if let accessLog = variable("ACCESS_LOG") { options.accessLog = accessLog != "0" }
        if let format = variable("LOG_FORMAT") { options.logFormat = try parseFormat(format) }
        if let metrics = variable("METRICS") { options.metrics = try parseMetrics(metrics) }
        options.isDevelopment = environment["SCREENPLAY_DEV"] == "1"
        if let text = variable("SCREENPLAY_DEV_LATENCY") {
            options.developmentLatency = try parseLatency(text, source: "SCREENPLAY_DEV_LATENCY")
        }
        for option in extra {
            if let name = option.environment, let value = variable(name) { options.values[option.flag] = value }
        }

        var remaining = arguments[...]
        func value(for flag: String) throws(UsageError) -> String {
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
            case "--help", "-h":
                throw UsageError(
                    message: usage(program: program, options: extra, rootHolds: rootHolds, defaultRoot: defaultRoot),
                    isHelp: true)
            case "--host": options.host = try value(for: flag)
            case "--port": options.port = try parsePort(try value(for: flag), source: "--port")
            case "--root":
                options.root = try value(for: flag)
                rootNamed = true
            case "--instance": options.instance = try value(for: flag)
            case "--log-level": options.logLevel = try parseLevel(try value(for: flag))
            case "--access-log": options.accessLog = true
            case "--no-access-log": options.accessLog = false
            case "--max-sessions": options.maxSessions = try parseCount(try value(for: flag), source: flag)
            case "--max-connections": options.maxConnections = try parseCount(try value(for: flag), source: flag)
            case "--upload-folder": options.uploadFolder = try value(for: flag)
            case "--upload-max-size": options.uploadMaxSize = try parseSize(try value(for: flag), source: flag)
            case "--upload-quota": options.uploadQuota = try parseSize(try value(for: flag), source: flag)
            case "--log-format": options.logFormat = try parseFormat(try value(for: flag))
            case "--metrics": options.metrics = try parseMetrics(try value(for: flag))
            case "--dev": options.isDevelopment = true
            case "--dev-latency": options.developmentLatency = try parseLatency(try value(for: flag), source: flag)
            default:
                guard extra.contains(where: { $0.flag == flag }) else {
                    throw UsageError(message: "unknown option \(argument)", isHelp: false)
                }
                options.values[flag] = try value(for: flag)
            }
        }
        if options.developmentLatency > 0 && !options.isDevelopment {
            throw UsageError(message: "--dev-latency is for development mode only: add --dev", isHelp: false)
        }
        if options.isDevelopment, !rootNamed, let developmentRoot,
            FileManager.default.fileExists(atPath: developmentRoot + "/Templates")
        {
            options.root = developmentRoot
        }
        return options
    }

    /// Parses the process's own command line and environment; on `--help` prints the usage and exits 0, on a
    /// mistake prints what is wrong and the usage to standard error and exits 64 (`EX_USAGE`).
    public static func fromCommandLine(
        program: String, options extra: [Option] = [], rootHolds: String = "Templates/ and Public/",
        defaultRoot: String = ".", developmentRoot: String? = nil
    ) -> ApplicationOptions {
        do {
            return try parse(
                Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment,
                program: program, options: extra, rootHolds: rootHolds, defaultRoot: defaultRoot,
                developmentRoot: developmentRoot)
        } catch {
            exitWithUsage(
                error, program: program,
                usage: usage(program: program, options: extra, rootHolds: rootHolds, defaultRoot: defaultRoot))
        }
    }

    /// Prints `error` as `fromCommandLine` does and exits.
    public static func exitWithUsage(_ error: UsageError, program: String, usage: String) -> Never {
        if error.isHelp {
            StandardStream.output.write(usage + "\n")
            exit(0)
        }
        StandardStream.error.write("\(program): \(error.message)\n\n\(usage)\n")
        exit(64)
    }

    /// The host to print in the URL to open.
    public var displayHost: String { host == "127.0.0.1" || host == "0.0.0.0" ? "localhost" : host }

    /// The server settings these options describe.
    public var server: ServerConfiguration {
        var server = ServerConfiguration()
        server.host = host
        server.port = port
        server.accessLog = accessLog
        server.connectionLimit = maxConnections
        return server
    }

    /// The upload settings these options describe (see ``Application/acceptUploads(_:storage:onFinished:)``).
    public var uploads: UploadConfiguration {
        UploadConfiguration(folder: uploadFolder ?? root + "/.data/uploads", maxSize: uploadMaxSize, quota: uploadQuota)
    }

    /// The session settings these options describe.
    public var sessions: SessionConfiguration {
        var sessions = SessionConfiguration()
        sessions.capacity = maxSessions
        sessions.instanceName = instance
        return sessions
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

    private static func parsePort(_ text: String, source: String) throws(UsageError) -> Int {
        guard let port = Int(text), (0...65535).contains(port) else {
            throw UsageError(message: "\(source) must be a port number from 0 to 65535, got \(text)", isHelp: false)
        }
        return port
    }

    private static func parseCount(_ text: String, source: String) throws(UsageError) -> Int {
        guard let count = Int(text), count > 0 else {
            throw UsageError(message: "\(source) must be a positive whole number, got \(text)", isHelp: false)
        }
        return count
    }

    private static func parseLatency(_ text: String, source: String) throws(UsageError) -> Int {
        guard let milliseconds = Int(text), (0...10_000).contains(milliseconds) else {
            throw UsageError(message: "\(source) must be milliseconds from 0 to 10000, got \(text)", isHelp: false)
        }
        return milliseconds
    }

    private static func parseLevel(_ text: String) throws(UsageError) -> String {
        guard ["debug", "info", "warning", "error"].contains(text) else {
            throw UsageError(message: "--log-level must be debug, info, warning or error, got \(text)", isHelp: false)
        }
        return text
    }

    /// A size in bytes: digits, optionally followed by `K`, `M` or `G` (KiB, MiB, GiB); positive, at most 1 TiB.
    static func parseSize(_ text: String, source: String) throws(UsageError) -> Int {
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var digits = Substring(text)
        var unit = 1
        if let last = text.last, let scale = units[Character(last.uppercased())] {
            unit = scale
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.count <= 13, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let count = Int(digits), count > 0, count <= (1 << 40) / unit
        else {
            throw UsageError(
                message: "\(source) must be a positive size in bytes, or with K, M or G (up to 1024G), got \(text)",
                isHelp: false)
        }
        return count * unit
    }

    private static func parseFormat(_ text: String) throws(UsageError) -> String {
        guard Logger.Format(rawValue: text) != nil else {
            throw UsageError(message: "--log-format must be text or json, got \(text)", isHelp: false)
        }
        return text
    }

    private static func parseMetrics(_ text: String) throws(UsageError) -> String {
        guard text == "off" || text == "main" || (Int(text).map { (0...65535).contains($0) } ?? false) else {
            throw UsageError(message: "--metrics must be off, main or a port number, got \(text)", isHelp: false)
        }
        return text
    }
}

extension Application {
    /// An application configured by `options`: its root, server, sessions and operations settings.
    public convenience init(options: ApplicationOptions, views: (ViewRegistry) -> Void = { _ in }) throws {
        try self.init(
            root: options.root, server: options.server, sessions: options.sessions, operations: options.operations,
            views: views)
    }

    /// Starts the server, says where it serves, and serves until SIGINT or SIGTERM; then stops it.
    ///
    /// Call it from `main.swift`, on the main thread, once the routes are registered.
    public func run(program: String? = nil) throws {
        let program =
            program ?? CommandLine.arguments.first.map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? "app"
        HTTPServer.blockTerminationSignals()
        try start()
        // Written straight to the file descriptor: print is fully buffered on a pipe, and a supervisor or test
        // reading the output must learn the port now.
        var banner = "\(program): serving http://localhost:\(port)/ (Ctrl-C to stop)\n"
        if isDevelopment { banner += "\(program): development mode: watching Templates/ and Public/\n" }
        if metricsPort != 0 { banner += "\(program): metrics at http://localhost:\(metricsPort)/metrics\n" }
        StandardStream.output.write(banner)
        _ = HTTPServer.waitForTerminationSignal()
        StandardStream.output.write("\(program): stopping\n")
        stop()
    }
}
