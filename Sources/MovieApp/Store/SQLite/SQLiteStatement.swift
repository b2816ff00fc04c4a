internal import CSQLite

/// A prepared statement of a ``SQLiteConnection``, reset before every use.
///
/// The connection owns and finalizes it; like its connection it is used by one thread at a time.
final class SQLiteStatement {
    let handle: OpaquePointer
    private let connection: OpaquePointer

    init(handle: OpaquePointer, connection: OpaquePointer) {
        self.handle = handle
        self.connection = connection
    }

    /// Clears the previous run and binds `values` to the parameters `?1`, `?2`, ….
    func reset(binding values: [SQLiteValue] = []) throws(StoreError) {
        // sqlite3_reset repeats the previous step's error, which was already reported.
        sqlite3_reset(handle)
        try check(sqlite3_clear_bindings(handle), on: connection, "clearing bindings")
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32 =
                switch value {
                case .integer(let integer): sqlite3_bind_int64(handle, index, Int64(integer))
                case .real(let real): sqlite3_bind_double(handle, index, real)
                case .null: sqlite3_bind_null(handle, index)
                case .text(let text):
                    text.utf8CString.withUnsafeBufferPointer { buffer in
                        sqlite3_bind_text(
                            handle, index, buffer.baseAddress, Int32(buffer.count - 1),
                            screenplay_sqlite_transient())
                    }
                case .blob(let bytes):
                    bytes.withUnsafeBytes { buffer in
                        sqlite3_bind_blob(
                            handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count),
                            screenplay_sqlite_transient())
                    }
                }
            try check(code, on: connection, "binding parameter \(index)")
        }
    }

    /// Advances to the next row; `false` when the statement is done.
    func step() throws(StoreError) -> Bool {
        let code = try check(sqlite3_step(handle), on: connection, "running a statement")
        return code == SQLITE_ROW
    }

    /// The integer in column `index` of the current row.
    func integer(at index: Int32) -> Int {
        Int(sqlite3_column_int64(handle, index))
    }

    /// The real number in column `index` of the current row.
    func real(at index: Int32) -> Double {
        sqlite3_column_double(handle, index)
    }

    /// The text in column `index` of the current row, or `nil` for NULL.
    /// The column's bytes, or `nil` for NULL.
    func blob(at index: Int32) -> [UInt8]? {
        guard sqlite3_column_type(handle, index) != SQLITE_NULL else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let start = sqlite3_column_blob(handle, index) else { return [] }
        return Array(UnsafeRawBufferPointer(start: start, count: count))
    }

    func text(at index: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}

@available(*, unavailable)
extension SQLiteStatement: Sendable {}

/// A value bound to a statement parameter.
enum SQLiteValue {
    case integer(Int)
    case real(Double)
    case text(String)
    /// Bytes (a poster image).
    case blob([UInt8])
    case null
}
