internal import FoundationEssentials
import Glibc
import Primitives

/// Resumable uploads in a folder: `<id>.bin` holds an upload's bytes, `<id>.info` its record (JSON, replaced whole
/// by a rename at each acknowledgement, so a crash leaves the previous one). After a restart every upload resumes
/// from the offset its record says; bytes written past it are dropped when the next append starts.
///
/// Contract: one process uses a folder at a time (the quota and the one-appender-per-upload rule are kept in
/// memory). Paths are made only from ids checked to be 22 URL-safe characters, so no id reaches outside the folder.
/// The folder is created (mode 0700) when missing.
///
/// ```swift
/// let storage = try FileUploadStorage(folder: ".data/uploads")
/// ```
public final class FileUploadStorage: UploadStorage {
    /// The folder the uploads are kept in.
    public let folder: String

    private struct State {
        /// Every live upload's length and expiry, by id.
        var uploads: [String: (length: Int, expires: Int)] = [:]
        /// The appender that holds each upload being written.
        var busy: [String: Appender] = [:]
        var reserved: Int { uploads.values.reduce(0) { $0 + $1.length } }
    }

    private let state = Locked(State())

    /// Opens (or creates) `folder` and reads the records of the uploads it holds.
    public init(folder: String) throws(UploadStorageError) {
        self.folder = folder
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .failed("cannot create the upload folder \(folder): \(systemErrorDescription(error))")
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var uploads: [String: (length: Int, expires: Int)] = [:]
        for name in names where name.hasSuffix(".info") {
            let id = String(name.dropLast(5))
            if let info = try? readInfo(id: id) { uploads[id] = (info.length, info.expires) }
        }
        state.withLock { $0.uploads = uploads }
    }

    /// Whether `id` has the shape of an upload id: 22 URL-safe base64 characters.
    static func isWellFormed(_ id: String) -> Bool {
        id.utf8.count == 22 && id.utf8.allSatisfy(SessionToken.isTokenByte)
    }

    private func path(_ id: String, _ suffix: String) -> String { "\(folder)/\(id).\(suffix)" }

    public func create(_ upload: UploadInfo, quota: Int) throws(UploadStorageError) {
        guard Self.isWellFormed(upload.id) else { throw .failed("malformed upload id") }
        let reserved = state.withLock { state -> Bool in
            guard state.reserved + upload.length <= quota else { return false }
            state.uploads[upload.id] = (upload.length, upload.expires)
            return true
        }
        guard reserved else { throw .quotaExceeded }
        do throws(UploadStorageError) {
            let descriptor = open(path(upload.id, "bin"), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw UploadStorageError.failed("creating \(upload.id).bin: \(Self.errno())") }
            close(descriptor)
            try writeInfo(upload)
        } catch {
            state.withLock { _ = $0.uploads.removeValue(forKey: upload.id) }
            unlink(path(upload.id, "bin"))
            throw error
        }
    }

    public func info(id: String) throws(UploadStorageError) -> UploadInfo? {
        guard Self.isWellFormed(id) else { return nil }
        let (exists, writer) = state.withLock { ($0.uploads[id] != nil, $0.busy[id]) }
        guard exists else { return nil }
        // Every byte received so far counts, even while its request is still open (or its client gone unnoticed).
        writer?.flush()
        return try readInfo(id: id)
    }

    public func append(id: String, at offset: Int) throws(UploadStorageError) -> any UploadAppender {
        guard Self.isWellFormed(id) else { throw .notFound }
        // The newest request wins: an appender still holding the upload (its client gone, and the server not told
        // yet) is closed, keeping what it received.
        if let holder = state.withLock({ $0.busy[id] }) { _ = holder.close() }
        let appender = Appender(storage: self, id: id)
        let claimed = state.withLock { state -> Bool? in
            guard state.uploads[id] != nil else { return nil }
            guard state.busy[id] == nil else { return false }
            state.busy[id] = appender
            return true
        }
        guard let claimed else { throw .notFound }
        guard claimed else { throw .conflict(offset: (try? readInfo(id: id))?.offset ?? offset) }
        do throws(UploadStorageError) {
            guard let info = try readInfo(id: id) else { throw UploadStorageError.notFound }
            guard info.offset == offset else { throw UploadStorageError.conflict(offset: info.offset) }
            let descriptor = open(path(id, "bin"), O_WRONLY | O_CLOEXEC)
            // Bytes past the acknowledged offset (a crash between write and commit) are not part of the upload. Cut
            // only when there are any: ext4 (auto_da_alloc) writes a file truncated to nothing out to disk when it is
            // closed, before the answer can go (its cost: Benchmarks/History/33-upload-throughput.md).
            var status = stat()
            guard descriptor >= 0, fstat(descriptor, &status) == 0,
                Int(status.st_size) == offset || ftruncate(descriptor, off_t(offset)) == 0
            else {
                if descriptor >= 0 { close(descriptor) }
                throw UploadStorageError.failed("opening \(id).bin: \(Self.errno())")
            }
            appender.open(info: info, descriptor: descriptor)
            return appender
        } catch {
            release(id, appender)
            throw error
        }
    }

    public func delete(id: String) throws(UploadStorageError) {
        guard Self.isWellFormed(id), state.withLock({ $0.uploads.removeValue(forKey: id) }) != nil else {
            throw .notFound
        }
        unlink(path(id, "info"))
        unlink(path(id, "bin"))
    }

    @discardableResult
    public func removeExpired(now: Int) throws(UploadStorageError) -> Int {
        let expired = state.withLock { state in
            let ids = state.uploads.filter { $0.value.expires < now && state.busy[$0.key] == nil }.map(\.key)
            for id in ids { state.uploads.removeValue(forKey: id) }
            return ids
        }
        for id in expired {
            unlink(path(id, "info"))
            unlink(path(id, "bin"))
        }
        return expired.count
    }

    public func contents(id: String) throws(UploadStorageError) -> [UInt8] {
        guard let info = try info(id: id) else { throw .notFound }
        guard let data = FileManager.default.contents(atPath: path(id, "bin")), data.count >= info.offset else {
            throw .failed("reading \(id).bin")
        }
        return Array(data.prefix(info.offset))
    }

    // MARK: Records

    private struct Record: Codable {
        var length: Int
        var offset: Int
        var metadata: [String: String]
        var expires: Int
    }

    private func readInfo(id: String) throws(UploadStorageError) -> UploadInfo? {
        guard let data = FileManager.default.contents(atPath: path(id, "info")) else { return nil }
        guard let record = try? JSONDecoder().decode(Record.self, from: data) else {
            throw .failed("\(id).info is not an upload record")
        }
        return UploadInfo(
            id: id, length: record.length, offset: record.offset, metadata: record.metadata, expires: record.expires)
    }

    /// Replaces the record whole: written to a temporary file, then renamed over the old one.
    fileprivate func writeInfo(_ info: UploadInfo) throws(UploadStorageError) {
        let record = Record(length: info.length, offset: info.offset, metadata: info.metadata, expires: info.expires)
        guard let data = try? JSONEncoder().encode(record) else { throw .failed("encoding \(info.id).info") }
        let temporary = path(info.id, "info.tmp")
        guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600]),
            rename(temporary, path(info.id, "info")) == 0
        else {
            unlink(temporary)
            throw .failed("writing \(info.id).info: \(Self.errno())")
        }
    }

    /// Whether the upload is still there (not terminated or expired meanwhile).
    fileprivate func isLive(_ id: String) -> Bool { state.withLock { $0.uploads[id] != nil } }

    /// Lets the upload go, if `appender` still holds it.
    fileprivate func release(_ id: String, _ appender: Appender) {
        state.withLock { state in
            if state.busy[id] === appender { state.busy.removeValue(forKey: id) }
        }
    }

    private static func errno() -> String { String(cString: strerror(Glibc.errno)) }

    /// Appends to one upload's file. Its request's thread writes; another request for the upload may flush or close it
    /// meanwhile (see ``append(id:at:)``), hence the lock.
    fileprivate final class Appender: UploadAppender, Sendable {
        private struct Open {
            var info: UploadInfo
            var descriptor: Int32 = -1
            /// Where the bytes of ``pending`` go: everything before it is in the file.
            var position: Int
            /// Bytes received and not yet in the file, written in one `pwrite` once ``bufferSize`` are held, and
            /// before every commit (so a committed offset is always on disk).
            var pending: [UInt8] = []
        }

        /// How much an appender holds before writing: a request body arrives in pieces of a few KB (libmicrohttpd's
        /// connection memory), and one write a piece costs server CPU (`Benchmarks/uploads/run.sh`, History/31).
        static let bufferSize = 256 * 1024

        private let storage: FileUploadStorage
        private let id: String
        /// `nil` before `open` and once closed.
        private let state = Locked<Open?>(nil)
        private let lastOffset = Locked(0)

        init(storage: FileUploadStorage, id: String) {
            self.storage = storage
            self.id = id
        }

        func open(info: UploadInfo, descriptor: Int32) {
            state.withLock { $0 = Open(info: info, descriptor: descriptor, position: info.offset) }
            lastOffset.withLock { $0 = info.offset }
        }

        deinit {
            _ = close()
        }

        func write(_ bytes: UnsafeRawBufferPointer) throws(UploadStorageError) {
            try state.withLock { (open: inout Open?) throws(UploadStorageError) in
                // `open!` mutates the held value in place: a copy would copy the pending bytes on every write.
                guard open != nil else { throw .failed("the appender is closed") }
                guard open!.position + open!.pending.count + bytes.count <= open!.info.length else {
                    throw .failed("past the upload's length")
                }
                if open!.pending.count + bytes.count > Self.bufferSize { try writePending(&open!) }
                if bytes.count >= Self.bufferSize {
                    try writeAll(bytes, to: &open!)
                } else {
                    if open!.pending.capacity < Self.bufferSize { open!.pending.reserveCapacity(Self.bufferSize) }
                    open!.pending.append(contentsOf: bytes)
                }
            }
        }

        /// Writes the pending bytes to the file.
        private func writePending(_ current: inout Open) throws(UploadStorageError) {
            guard !current.pending.isEmpty else { return }
            // Taken out while written, then put back emptied: one buffer for the whole upload.
            var pending: [UInt8] = []
            swap(&pending, &current.pending)
            var failure: UploadStorageError?
            pending.withUnsafeBytes { bytes in
                do throws(UploadStorageError) { try writeAll(bytes, to: &current) } catch { failure = error }
            }
            if failure == nil { pending.removeAll(keepingCapacity: true) }
            current.pending = pending
            if let failure { throw failure }
        }

        /// Writes `bytes` at the file's position and moves it past them.
        private func writeAll(_ bytes: UnsafeRawBufferPointer, to current: inout Open) throws(UploadStorageError) {
            guard let base = bytes.baseAddress else { return }
            var done = 0
            while done < bytes.count {
                let count = pwrite(current.descriptor, base + done, bytes.count - done, off_t(current.position + done))
                if count < 0 && Glibc.errno == EINTR { continue }
                guard count > 0 else { throw .failed("writing \(id).bin: \(FileUploadStorage.errno())") }
                done += count
            }
            current.position += bytes.count
        }

        func commit() throws(UploadStorageError) -> Int {
            try state.withLock { (open: inout Open?) throws(UploadStorageError) -> Int in
                guard open != nil else { throw .failed("the appender is closed") }
                try commit(&open!)
                return open!.info.offset
            }
        }

        /// Commits what was written, for a `HEAD` from another request; a failure leaves the offset as it was.
        func flush() {
            _ = try? commit()
        }

        private func commit(_ current: inout Open) throws(UploadStorageError) {
            try writePending(&current)
            guard current.position != current.info.offset else { return }
            guard storage.isLive(id) else { throw .notFound }
            var next = current.info
            next.offset = current.position
            try storage.writeInfo(next)
            current.info = next
            lastOffset.withLock { $0 = next.offset }
        }

        func close() -> Int {
            state.withLock { (open: inout Open?) in
                guard open != nil else { return }
                try? commit(&open!)
                Glibc.close(open!.descriptor)
                open = nil
            }
            // Released by whichever close comes: a new request closing this appender while its own request abandons
            // it finds the upload free when its close returns, not once the other's does.
            storage.release(id, self)
            return lastOffset.withLock { $0 }
        }
    }
}
