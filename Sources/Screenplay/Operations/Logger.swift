internal import FoundationEssentials
internal import HTTPServer

/// Writes the app's log: one line per request and per session lifecycle event, as text or JSON, filtered by level.
///
/// Lines go to standard error in one `write` each, so lines from different threads never interleave. Text lines read
/// `2026-11-30T02:51:31Z info request method=GET path=/movies/1 status=200 …`; JSON lines hold the same fields.
///
/// ```swift
/// let logger = Logger(level: .info, format: .json)
/// logger.log(.info, "session.opened", ["session": id, "url": "/movies/1"])
/// ```
///
/// A `Logger` is a value and thread-safe; copy it freely.
public struct Logger: Sendable {
    /// How important a line is; lines below the logger's level are dropped before they are formatted.
    public enum Level: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
        /// Details for debugging: every event sent, every reload step.
        case debug
        /// The normal course: requests, sessions opening and ending.
        case info
        /// Something unexpected that the server survived.
        case warning
        /// A failure: a screen that could not be built, a handler that threw.
        case error

        /// Parses `debug`, `info`, `warning` or `error`.
        public init?(name: String) {
            guard let level = Level.allCases.first(where: { $0.description == name }) else { return nil }
            self = level
        }

        /// The level's name as written in logs and on the command line.
        public var description: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warning: "warning"
            case .error: "error"
            }
        }

        /// Orders levels by importance.
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// How a line is written.
    public enum Format: String, Sendable, CaseIterable {
        /// `time level event key=value …`, values with spaces or quotes quoted.
        case text
        /// One JSON object per line: `{"time":…,"level":…,"event":…,"key":"value"}`.
        case json
    }

    /// The lowest level written.
    public var level: Level
    /// The line format.
    public var format: Format
    private let sink: @Sendable (String) -> Void

    /// Creates a logger writing to standard error, or to `sink` (one call per line, newline included) in tests.
    public init(level: Level = .info, format: Format = .text, sink: (@Sendable (String) -> Void)? = nil) {
        self.level = level
        self.format = format
        self.sink = sink ?? Logger.writeToStandardError
    }

    /// A logger that writes nothing.
    public static let silent = Logger(level: .error, format: .text, sink: { _ in })

    /// Whether a line at `level` would be written: check it before building expensive fields.
    public func isEnabled(_ level: Level) -> Bool { level >= self.level }

    /// Writes one line with `event` (a dotted name such as `session.ended`) and `fields` in order.
    public func log(_ level: Level, _ event: String, _ fields: KeyValuePairs<String, String> = [:]) {
        guard isEnabled(level) else { return }
        sink(line(level, event, Array(fields)))
    }

    /// The line `log` would write, newline included.
    func line(_ level: Level, _ event: String, _ fields: [(key: String, value: String)]) -> String {
        let time = Date().formatted(.iso8601)
        switch format {
        case .text:
            var line = "\(time) \(level) \(event)"
            for (key, value) in fields { line += " \(key)=\(Logger.quotedIfNeeded(value))" }
            return line + "\n"
        case .json:
            var line = "{\"time\":\"\(time)\",\"level\":\"\(level)\",\"event\":\(Logger.jsonString(event))"
            for (key, value) in fields { line += ",\(Logger.jsonString(key)):\(Logger.jsonString(value))" }
            return line + "}\n"
        }
    }

    /// Quotes a text value holding spaces, quotes, `=` or control characters, so a line splits back unambiguously.
    static func quotedIfNeeded(_ value: String) -> String {
        let needsQuotes =
            value.isEmpty || value.unicodeScalars.contains { $0 == " " || $0 == "\"" || $0 == "=" || $0.value < 0x20 }
        return needsQuotes ? jsonString(value) : value
    }

    /// `value` as a JSON string literal.
    static func jsonString(_ value: String) -> String {
        var result = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// One `write` per line, so lines from different threads never interleave (the server's own log does the same).
    private static let writeToStandardError: @Sendable (String) -> Void = { ServerLog.write($0) }
}
