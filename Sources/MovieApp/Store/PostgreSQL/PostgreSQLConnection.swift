internal import CLibPQ
import FoundationEssentials
internal import Glibc
internal import Primitives

/// Where a PostgreSQL store connects, parsed from a `postgresql://` URL; it says where without ever saying the
/// password, so errors and logs can name it.
struct PostgreSQLAddress: Sendable, CustomStringConvertible {
    /// The URL as given, password included: handed to libpq only.
    let url: String
    /// `host:port` (or the socket folder), and the user, for messages.
    let host: String
    let user: String

    /// Nil unless `url` is a `postgresql://` or `postgres://` URL.
    init?(_ url: String) {
        guard url.hasPrefix("postgresql://") || url.hasPrefix("postgres://"),
            let components = URLComponents(string: url)
        else { return nil }
        self.url = url
        let query = components.queryItems ?? []
        let socketHost = query.first { $0.name == "host" }?.value
        let hostName = components.host.flatMap { $0.isEmpty ? nil : $0 } ?? socketHost ?? "localhost"
        let port = components.port.map(String.init) ?? query.first { $0.name == "port" }?.value ?? "5432"
        host = "\(hostName):\(port)"
        user = components.user ?? query.first { $0.name == "user" }?.value ?? ProcessInfo.processInfo.userName
    }

    var description: String { "PostgreSQL at \(host) as \(user)" }
}

/// One libpq connection. Not thread-safe: the store's pool lends it to one caller at a time, the listener keeps it on
/// its thread.
///
/// Every libpq result goes through ``check(_:_:)``, which throws a ``StoreError`` with PostgreSQL's own message and
/// what the store was doing; messages name the host and user, never the password.
final class PostgreSQLConnection {
    let address: PostgreSQLAddress
    private let handle: OpaquePointer

    /// Connects, waiting at most `timeout` seconds.
    init(_ address: PostgreSQLAddress, timeout: Int = 5) throws(StoreError) {
        self.address = address
        let keywords = ["dbname", "connect_timeout", "application_name"]
        let values = [address.url, String(timeout), "movies"]
        let handle = Self.withCStrings(keywords) { keywords in
            Self.withCStrings(values) { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let handle else { throw StoreError(.unavailable, message: "connecting to \(address): out of memory") }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = Self.message(of: handle)
            PQfinish(handle)
            throw StoreError(.unavailable, message: "connecting to \(address): \(message)")
        }
        self.handle = handle
        // Notices (`relation … already exists, skipping` from the schema's `IF NOT EXISTS`) would go to standard
        // error through libpq, outside the app's log: only warnings and errors come back, as results.
        try execute("SET client_min_messages = warning", [], "setting the connection's message level")
    }

    deinit {
        PQfinish(handle)
    }

    /// Whether the connection is still up (as far as libpq knows: it learns of a loss on its next use).
    var isConnected: Bool { PQstatus(handle) == CONNECTION_OK }

    /// The connection's socket, for a listener's readiness.
    var socket: Int32 { PQsocket(handle) }

    /// Runs `sql` with text parameters `$1…` and returns its rows as text (nil for SQL NULL).
    @discardableResult
    func execute(_ sql: String, _ parameters: [String?] = [], _ context: @autoclosure () -> String) throws(StoreError)
        -> [[String?]]
    {
        let result = Self.withOptionalCStrings(parameters) { values in
            PQexecParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
        }
        defer { PQclear(result) }
        try check(result, context())
        let rows = Int(PQntuples(result))
        let columns = Int(PQnfields(result))
        return (0..<rows).map { row in
            (0..<columns).map { column in
                PQgetisnull(result, Int32(row), Int32(column)) == 1
                    ? nil : String(cString: PQgetvalue(result, Int32(row), Int32(column)))
            }
        }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    func inTransaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try execute("BEGIN", [], "starting a transaction")
        do {
            let value = try body()
            try execute("COMMIT", [], "committing")
            return value
        } catch {
            _ = try? execute("ROLLBACK", [], "rolling back")
            throw error
        }
    }

    /// Reads what the server sent; false when the connection is lost.
    func consumeInput() -> Bool { PQconsumeInput(handle) == 1 }

    /// The notifications received so far, taken: their channel and payload.
    func takeNotifications() -> [(channel: String, payload: String)] {
        var taken: [(String, String)] = []
        while let notification = PQnotifies(handle) {
            taken.append((String(cString: notification.pointee.relname), String(cString: notification.pointee.extra)))
            PQfreemem(notification)
        }
        return taken
    }

    /// The libpq result check: throws unless `result` reports success.
    private func check(_ result: OpaquePointer?, _ context: @autoclosure () -> String) throws(StoreError) {
        switch result.map(PQresultStatus) {
        case PGRES_COMMAND_OK?, PGRES_TUPLES_OK?:
            return
        default:
            let message =
                result.flatMap { PQresultErrorMessage($0) }.map { String(cString: $0) }.flatMap {
                    $0.isEmpty ? nil : $0
                } ?? Self.message(of: handle)
            throw StoreError(
                .unavailable,
                message: "\(context()) on \(address): \(message.trimmingWhitespace(includingNewlines: true))")
        }
    }

    private static func message(of handle: OpaquePointer) -> String {
        PQerrorMessage(handle).map { String(cString: $0) }?.trimmingWhitespace(includingNewlines: true)
            ?? "unknown error"
    }

    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        withOptionalCStrings(strings.map { Optional($0) }) { pointers in
            body(pointers + [nil])
        }
    }

    /// Hands `body` C copies of `strings` (nil stays nil), valid for the call.
    private static func withOptionalCStrings<R>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        let copies = strings.map { $0.map { strdup($0) } ?? nil }
        defer { for copy in copies { free(copy) } }
        return body(copies.map { $0.map { UnsafePointer($0) } })
    }
}

@available(*, unavailable)
extension PostgreSQLConnection: Sendable {}
