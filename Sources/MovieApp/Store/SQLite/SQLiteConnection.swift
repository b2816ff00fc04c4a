internal import CSQLite
import Primitives

/// Turns an SQLite result code into a thrown ``StoreError`` unless it reports success.
///
/// Every return code of the C API goes through here, so no failure is ignored and every message
/// carries SQLite's own explanation and what the store was doing.
@discardableResult
func check(_ code: Int32, on database: OpaquePointer?, _ context: @autoclosure () -> String) throws(StoreError)
    -> Int32
{
    switch code & 0xFF {
    case SQLITE_OK, SQLITE_ROW, SQLITE_DONE:
        return code
    default:
        let explanation =
            if let database, let message = sqlite3_errmsg(database) {
                String(cString: message)
            } else {
                String(cString: sqlite3_errstr(code))
            }
        throw StoreError(.unavailable, message: "\(context()): \(explanation) (code \(code))")
    }
}

/// One SQLite connection and its prepared statements.
///
/// Not thread-safe: ``SQLiteMovieStore`` keeps it inside a lock (`Locked`), so one thread at a time uses it
/// (the connection is opened with `SQLITE_OPEN_NOMUTEX` for that reason).
final class SQLiteConnection {
    let handle: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]
    /// `PRAGMA data_version` (one of `statements`), kept at hand: every cached read asks it, and finding it by its
    /// text hashed the text each time.
    private var dataVersionStatement: SQLiteStatement?

    /// Opens the database file at `path`, creating it unless `readOnly`.
    init(path: String, readOnly: Bool) throws(StoreError) {
        var handle: OpaquePointer?
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        do {
            try check(code, on: handle, "opening the database \(path)")
        } catch {
            sqlite3_close_v2(handle)
            throw error
        }
        guard let handle else {
            throw StoreError(.unavailable, message: "opening the database \(path): out of memory")
        }
        self.handle = handle
        do {
            try check(sqlite3_extended_result_codes(handle, 1), on: handle, "enabling extended result codes")
            // Another process may hold the write lock briefly; wait rather than fail at once.
            try check(sqlite3_busy_timeout(handle, 2_000), on: handle, "setting the busy timeout")
        } catch {
            sqlite3_close_v2(handle)
            throw error
        }
    }

    deinit {
        for statement in statements.values {
            sqlite3_finalize(statement.handle)
        }
        sqlite3_close_v2(handle)
    }

    /// Whether the connection may write (false for read-only files and read-only opens).
    var isReadOnly: Bool {
        sqlite3_db_readonly(handle, "main") == 1
    }

    /// Runs SQL that returns no rows we need (schema, pragmas, transaction control).
    func execute(_ sql: String) throws(StoreError) {
        try check(sqlite3_exec(handle, sql, nil, nil, nil), on: handle, "running \(Self.summary(of: sql))")
    }

    /// The statement for `sql`, prepared on first use and kept for the connection's life.
    func statement(_ sql: String) throws(StoreError) -> SQLiteStatement {
        if let statement = statements[sql] {
            return statement
        }
        var handle: OpaquePointer?
        try check(
            sqlite3_prepare_v3(self.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil),
            on: self.handle, "preparing \(Self.summary(of: sql))")
        guard let handle else {
            throw StoreError(.unavailable, message: "preparing \(Self.summary(of: sql)): empty statement")
        }
        let statement = SQLiteStatement(handle: handle, connection: self.handle)
        statements[sql] = statement
        return statement
    }

    /// SQLite's data version: it changes whenever another connection (in this process or another) has committed
    /// since the last call, and never for this connection's own commits. In WAL mode it reads the shared
    /// WAL index, not the file.
    func dataVersion() throws(StoreError) -> Int {
        let pragma: SQLiteStatement
        if let prepared = dataVersionStatement {
            pragma = prepared
        } else {
            pragma = try statement("PRAGMA data_version")
            try pragma.reset()
            dataVersionStatement = pragma
        }
        // Reset after every run (which ends the read it started), so the next run needs no reset first; it has no
        // parameters to clear.
        defer { try? pragma.reset() }
        guard try pragma.step() else {
            throw StoreError(.unavailable, message: "PRAGMA data_version returned no row")
        }
        return pragma.integer(at: 0)
    }

    /// The start of a statement's first line, to say in an error which statement failed.
    private static func summary(of sql: String) -> String {
        let line = sql.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? sql
        return line.count > 60 ? "\(line.prefix(57))..." : line
    }

    /// Runs `body` in a write transaction: `BEGIN IMMEDIATE`, then `COMMIT`, or `ROLLBACK` if
    /// `body` or the commit throws.
    ///
    /// `IMMEDIATE` takes the write lock before the first read, so a read-modify-write cannot be
    /// interleaved with another connection's write.
    func inTransaction<Result>(_ body: () throws(StoreError) -> Result) throws(StoreError) -> Result {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if sqlite3_get_autocommit(handle) == 0 {
                // The original error is the one worth reporting; a failed rollback leaves SQLite
                // to roll back when the connection closes.
                _ = try? execute("ROLLBACK")
            }
            throw error
        }
    }
}

@available(*, unavailable)
extension SQLiteConnection: Sendable {}
