internal import FoundationEssentials
import Primitives
internal import Screenplay

/// Resumable uploads in PostgreSQL, shared by every instance on the database: a row of `uploads` per upload (its
/// length, acknowledged offset, metadata and expiry) and its bytes as `bytea` chunks in `upload_chunks`.
///
/// Contract: an append buffers at most ``chunkSize`` bytes, then stores them as one chunk and moves the offset in one
/// transaction that succeeds only if the offset is still the one it started from; so an offset, once acknowledged, has
/// exactly its bytes stored before it, on every instance, and two appenders racing on one upload (on two instances)
/// cannot both move it: the second gets ``UploadStorageError/conflict(offset:)``. On one instance a second appender is
/// refused at once. The quota is checked against the sum of live uploads' lengths under an advisory lock. Terminating
/// or expiring an upload deletes its chunks with it. Thread-safe.
final class PostgreSQLUploadStorage: UploadStorage {
    /// The most bytes an append holds before storing them as a chunk.
    static let chunkSize = 256 << 10

    private let pool: PostgreSQLConnectionPool
    /// The appender of this instance that holds each upload being written here.
    private let busy = Locked([String: Appender]())

    init(pool: PostgreSQLConnectionPool) {
        self.pool = pool
    }

    /// Creates the tables (inside the store's schema transaction).
    static func createTables(on connection: PostgreSQLConnection) throws(StoreError) {
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS uploads (
                id text PRIMARY KEY,
                length bigint NOT NULL,
                upload_offset bigint NOT NULL DEFAULT 0,
                metadata text NOT NULL,
                expires bigint NOT NULL
            )
            """, [], "creating the uploads table")
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS upload_chunks (
                upload_id text NOT NULL REFERENCES uploads (id) ON DELETE CASCADE,
                chunk_offset bigint NOT NULL,
                data bytea NOT NULL,
                PRIMARY KEY (upload_id, chunk_offset)
            )
            """, [], "creating the upload chunks table")
    }

    func create(_ upload: UploadInfo, quota: Int) throws(UploadStorageError) {
        let metadata = try Self.encode(upload.metadata)
        let created = try run { connection throws(StoreError) in
            try connection.inTransaction { () throws(StoreError) -> Bool in
                try connection.execute("SELECT pg_advisory_xact_lock(7268352)", [], "locking the upload quota")
                let rows = try connection.execute(
                    "SELECT coalesce(sum(length), 0) FROM uploads", [], "summing the uploads")
                let reserved = rows.first.flatMap { $0.first ?? nil }.flatMap { Int($0) } ?? 0
                guard reserved + upload.length <= quota else { return false }
                try connection.execute(
                    "INSERT INTO uploads (id, length, upload_offset, metadata, expires) VALUES ($1, $2, 0, $3, $4)",
                    [upload.id, String(upload.length), metadata, String(upload.expires)], "creating an upload")
                return true
            }
        }
        guard created else { throw .quotaExceeded }
    }

    func info(id: String) throws(UploadStorageError) -> UploadInfo? {
        // Every byte this instance received so far counts, even while its request is still open.
        busy.withLock { $0[id] }?.flush()
        return try storedInfo(id: id)
    }

    private func storedInfo(id: String) throws(UploadStorageError) -> UploadInfo? {
        let rows = try run { connection throws(StoreError) in
            try connection.execute(
                "SELECT length, upload_offset, metadata, expires FROM uploads WHERE id = $1", [id], "reading an upload")
        }
        guard let row = rows.first, row.count == 4, let length = row[0].flatMap({ Int($0) }),
            let offset = row[1].flatMap({ Int($0) }), let expires = row[3].flatMap({ Int($0) })
        else { return nil }
        return UploadInfo(id: id, length: length, offset: offset, metadata: Self.decode(row[2]), expires: expires)
    }

    func append(id: String, at offset: Int) throws(UploadStorageError) -> any UploadAppender {
        // The newest request wins: an appender still holding the upload here (its client gone, and the server not
        // told yet) is closed, keeping what it received.
        if let holder = busy.withLock({ $0[id] }) { _ = holder.close() }
        let appender = Appender(storage: self, id: id)
        let claimed = busy.withLock { busy in
            guard busy[id] == nil else { return false }
            busy[id] = appender
            return true
        }
        guard claimed else {
            throw .conflict(offset: (try? storedInfo(id: id))?.offset ?? offset)
        }
        do throws(UploadStorageError) {
            guard let info = try storedInfo(id: id) else { throw UploadStorageError.notFound }
            guard info.offset == offset else { throw UploadStorageError.conflict(offset: info.offset) }
            appender.open(info: info)
            return appender
        } catch {
            release(id, appender)
            throw error
        }
    }

    func delete(id: String) throws(UploadStorageError) {
        let rows = try run { connection throws(StoreError) in
            try connection.execute("DELETE FROM uploads WHERE id = $1 RETURNING id", [id], "deleting an upload")
        }
        guard !rows.isEmpty else { throw .notFound }
    }

    @discardableResult
    func removeExpired(now: Int) throws(UploadStorageError) -> Int {
        try run { connection throws(StoreError) in
            try connection.execute(
                "DELETE FROM uploads WHERE expires < $1 RETURNING id", [String(now)], "removing expired uploads"
            ).count
        }
    }

    func contents(id: String) throws(UploadStorageError) -> [UInt8] {
        guard let info = try storedInfo(id: id) else { throw .notFound }
        let rows = try run { connection throws(StoreError) in
            try connection.execute(
                "SELECT data FROM upload_chunks WHERE upload_id = $1 AND chunk_offset < $2 ORDER BY chunk_offset",
                [id, String(info.offset)], "reading an upload's chunks")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(info.offset)
        for row in rows {
            guard let text = row.first ?? nil, let chunk = Self.decodeHex(text) else {
                throw .failed("upload \(id): a chunk is not bytea hex")
            }
            bytes += chunk
        }
        guard bytes.count == info.offset else { throw .failed("upload \(id): chunks do not add up to its offset") }
        return bytes
    }

    // MARK: Appending

    /// Stores `chunk` at `offset` and moves the upload's offset past it, if it is still at `offset`.
    fileprivate func store(_ chunk: [UInt8], id: String, at offset: Int) throws(UploadStorageError) {
        let moved = try run { connection throws(StoreError) in
            try connection.inTransaction { () throws(StoreError) -> Bool in
                let updated = try connection.execute(
                    "UPDATE uploads SET upload_offset = $2 WHERE id = $1 AND upload_offset = $3 RETURNING id",
                    [id, String(offset + chunk.count), String(offset)], "moving an upload's offset")
                guard !updated.isEmpty else { return false }
                try connection.execute(
                    "INSERT INTO upload_chunks (upload_id, chunk_offset, data) VALUES ($1, $2, $3::bytea)",
                    [id, String(offset), Self.hex(chunk)], "storing an upload chunk")
                return true
            }
        }
        guard moved else {
            guard let info = try storedInfo(id: id) else { throw .notFound }
            throw .conflict(offset: info.offset)
        }
    }

    /// Lets the upload go, if `appender` still holds it.
    fileprivate func release(_ id: String, _ appender: Appender) {
        busy.withLock { busy in
            if busy[id] === appender { busy.removeValue(forKey: id) }
        }
    }

    /// Appends to one upload. Its request's thread writes; another request for the upload may flush or close it
    /// meanwhile, hence the lock.
    fileprivate final class Appender: UploadAppender, Sendable {
        private struct Open {
            var info: UploadInfo
            /// The offset acknowledged, and the bytes written after it.
            var offset: Int
            var buffer: [UInt8] = []
        }

        private let storage: PostgreSQLUploadStorage
        private let id: String
        /// `nil` before `open` and once closed.
        private let state = Locked<Open?>(nil)
        private let lastOffset = Locked(0)

        init(storage: PostgreSQLUploadStorage, id: String) {
            self.storage = storage
            self.id = id
        }

        func open(info: UploadInfo) {
            var open = Open(info: info, offset: info.offset)
            open.buffer.reserveCapacity(PostgreSQLUploadStorage.chunkSize)
            state.withLock { $0 = open }
            lastOffset.withLock { $0 = info.offset }
        }

        deinit {
            _ = close()
        }

        func write(_ bytes: UnsafeRawBufferPointer) throws(UploadStorageError) {
            try state.withLock { (open: inout Open?) throws(UploadStorageError) in
                // Taken out and put back, so that the buffer has one owner and grows in place (a copy left in `open`
                // would make every append copy the pending chunk).
                guard var current = open.take() else { throw .failed("the appender is closed") }
                defer { open = current }
                guard current.offset + current.buffer.count + bytes.count <= current.info.length else {
                    throw .failed("past the upload's length")
                }
                var rest = bytes[...]
                while !rest.isEmpty {
                    let room = PostgreSQLUploadStorage.chunkSize - current.buffer.count
                    let piece = rest.prefix(room)
                    current.buffer.append(contentsOf: piece)
                    rest = rest.dropFirst(piece.count)
                    if current.buffer.count == PostgreSQLUploadStorage.chunkSize { try commit(&current) }
                }
            }
        }

        func commit() throws(UploadStorageError) -> Int {
            try state.withLock { (open: inout Open?) throws(UploadStorageError) -> Int in
                guard var current = open.take() else { throw .failed("the appender is closed") }
                defer { open = current }
                try commit(&current)
                return current.offset
            }
        }

        /// Stores what was written, for a `HEAD` from another request; a failure leaves the offset as it was.
        func flush() {
            _ = try? commit()
        }

        private func commit(_ current: inout Open) throws(UploadStorageError) {
            guard !current.buffer.isEmpty else { return }
            try storage.store(current.buffer, id: id, at: current.offset)
            current.offset += current.buffer.count
            current.buffer.removeAll(keepingCapacity: true)
            lastOffset.withLock { $0 = current.offset }
        }

        func close() -> Int {
            state.withLock { (open: inout Open?) in
                guard open != nil else { return }
                try? commit(&open!)
                open = nil
            }
            // Released by whichever close comes: a new request closing this appender while its own request abandons
            // it finds the upload free when its close returns, not once the other's does.
            storage.release(id, self)
            return lastOffset.withLock { $0 }
        }
    }

    // MARK: Encoding

    private func run<T>(_ body: (PostgreSQLConnection) throws(StoreError) -> T) throws(UploadStorageError) -> T {
        do {
            return try pool.withConnection(body)
        } catch {
            throw .failed(error.message)
        }
    }

    private static func encode(_ metadata: [String: String]) throws(UploadStorageError) -> String {
        guard let data = try? JSONEncoder().encode(metadata) else { throw .failed("encoding an upload's metadata") }
        return String(decoding: data, as: UTF8.self)
    }

    private static func decode(_ text: String?) -> [String: String] {
        guard let text else { return [:] }
        return (try? JSONDecoder().decode([String: String].self, from: Data(text.utf8))) ?? [:]
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `bytes` as a `bytea` literal in hex form, `\x…`.
    static func hex(_ bytes: [UInt8]) -> String {
        String(unsafeUninitializedCapacity: 2 + 2 * bytes.count) { buffer in
            buffer[0] = UInt8(ascii: "\\")
            buffer[1] = UInt8(ascii: "x")
            for (index, byte) in bytes.enumerated() {
                buffer[2 + 2 * index] = hexDigits[Int(byte >> 4)]
                buffer[3 + 2 * index] = hexDigits[Int(byte & 0x0F)]
            }
            return 2 + 2 * bytes.count
        }
    }

    /// The bytes of a `bytea` value as PostgreSQL prints it in hex form (`\x…`); `nil` when it is not that.
    static func decodeHex(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x"), utf8.count % 2 == 0 else {
            return nil
        }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case 0x30...0x39: digit - 0x30
            case 0x61...0x66: digit - 0x61 + 10
            case 0x41...0x46: digit - 0x41 + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((utf8.count - 2) / 2)
        var index = 2
        while index < utf8.count {
            guard let high = value(utf8[index]), let low = value(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }
}
