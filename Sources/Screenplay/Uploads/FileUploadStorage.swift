internal import Foundation
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
        /// Uploads an appender holds.
        var busy: Set<String> = []
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
            throw .failed("cannot create the upload folder \(folder): \(error.localizedDescription)")
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
        guard Self.isWellFormed(id), state.withLock({ $0.uploads[id] != nil }) else { return nil }
        return try readInfo(id: id)
    }

    public func append(id: String, at offset: Int) throws(UploadStorageError) -> any UploadAppender {
        guard Self.isWellFormed(id) else { throw .notFound }
        let claimed = state.withLock { state -> Bool? in
            guard state.uploads[id] != nil else { return nil }
            return state.busy.insert(id).inserted
        }
        guard let claimed else { throw .notFound }
        do throws(UploadStorageError) {
            guard let info = try readInfo(id: id) else { throw UploadStorageError.notFound }
            guard claimed, info.offset == offset else { throw UploadStorageError.conflict(offset: info.offset) }
            let descriptor = open(path(id, "bin"), O_WRONLY | O_CLOEXEC)
            // Bytes past the acknowledged offset (a crash between write and commit) are not part of the upload.
            guard descriptor >= 0, ftruncate(descriptor, off_t(offset)) == 0 else {
                if descriptor >= 0 { close(descriptor) }
                throw UploadStorageError.failed("opening \(id).bin: \(Self.errno())")
            }
            return Appender(storage: self, info: info, descriptor: descriptor)
        } catch {
            if claimed { release(id) }
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
            let ids = state.uploads.filter { $0.value.expires < now && !state.busy.contains($0.key) }.map(\.key)
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

    fileprivate func release(_ id: String) { state.withLock { _ = $0.busy.remove(id) } }

    private static func errno() -> String { String(cString: strerror(Glibc.errno)) }

    private final class Appender: UploadAppender {
        private let storage: FileUploadStorage
        private var info: UploadInfo
        private var descriptor: Int32
        private var position: Int

        init(storage: FileUploadStorage, info: UploadInfo, descriptor: Int32) {
            self.storage = storage
            self.info = info
            self.descriptor = descriptor
            position = info.offset
        }

        deinit {
            if descriptor >= 0 { _ = close() }
        }

        func write(_ bytes: UnsafeRawBufferPointer) throws(UploadStorageError) {
            guard descriptor >= 0 else { throw .failed("the appender is closed") }
            guard position + bytes.count <= info.length else { throw .failed("past the upload's length") }
            var done = 0
            while done < bytes.count {
                let count = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(position + done))
                if count < 0 && Glibc.errno == EINTR { continue }
                guard count > 0 else { throw .failed("writing \(info.id).bin: \(FileUploadStorage.errno())") }
                done += count
            }
            position += bytes.count
        }

        func commit() throws(UploadStorageError) -> Int {
            guard position != info.offset else { return position }
            guard storage.isLive(info.id) else { throw .notFound }
            var next = info
            next.offset = position
            try storage.writeInfo(next)
            info = next
            return position
        }

        func close() -> Int {
            guard descriptor >= 0 else { return info.offset }
            _ = try? commit()
            Glibc.close(descriptor)
            descriptor = -1
            storage.release(info.id)
            return info.offset
        }
    }
}
