/// One resumable upload as its storage keeps it: how long it will be, how much of it is stored, what the client said
/// about it and when it expires.
public struct UploadInfo: Sendable, Equatable {
    /// The upload's id: 22 URL-safe characters, 128 random bits (unguessable: it is the key to the upload).
    public var id: String
    /// The length the client declared at creation (`Upload-Length`), in bytes.
    public var length: Int
    /// The bytes stored and acknowledged so far (`Upload-Offset`).
    public var offset: Int
    /// The creation's `Upload-Metadata`, decoded: `field`, `filename`, `filetype`, `screen`, `csrf`…
    public var metadata: [String: String]
    /// When the upload expires, in seconds since 1970: storage may drop it from then on.
    public var expires: Int

    public init(id: String, length: Int, offset: Int = 0, metadata: [String: String] = [:], expires: Int) {
        self.id = id
        self.length = length
        self.offset = offset
        self.metadata = metadata
        self.expires = expires
    }

    /// Whether every byte has arrived.
    public var isFinished: Bool { offset == length }
}

/// Why an ``UploadStorage`` call failed.
public enum UploadStorageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No upload has this id (never created, terminated or expired).
    case notFound
    /// The append does not start at the stored offset (which it carries), or another request is appending.
    case conflict(offset: Int)
    /// Storing the upload would take the storage past its quota.
    case quotaExceeded
    /// The storage itself failed (a disk or database error), with what it was doing.
    case failed(String)

    public var description: String {
        switch self {
        case .notFound: "no such upload"
        case .conflict(let offset): "the upload is at offset \(offset), or another request is writing to it"
        case .quotaExceeded: "the upload storage is full"
        case .failed(let message): message
        }
    }
}

/// Where resumable uploads are kept: their records and bytes, shared by every instance that must resume them.
///
/// ``FileUploadStorage`` keeps them in a folder; an app whose instances share a database provides its own (the demo's
/// PostgreSQL store keeps chunks in a table), so that an upload started on one instance resumes on another, and after
/// a restart, from its last acknowledged offset.
///
/// Contract: thread-safe; every method may be called from any thread. An offset once acknowledged (returned by
/// ``UploadAppender/commit()``) survives a restart. Never more than ``UploadInfo/length`` bytes are stored for an
/// upload, and ``create(_:quota:)`` refuses an upload whose length would take the sum of live uploads' lengths past
/// the quota, so that the quota bounds what the storage holds.
public protocol UploadStorage: Sendable {
    /// Records a new upload with offset 0, its whole length reserved against `quota` (bytes).
    /// Throws ``UploadStorageError/quotaExceeded`` or ``UploadStorageError/failed(_:)``.
    func create(_ upload: UploadInfo, quota: Int) throws(UploadStorageError)
    /// The upload with this id, or `nil`.
    func info(id: String) throws(UploadStorageError) -> UploadInfo?
    /// Starts appending to the upload at `offset`, which must be its stored offset; one appender at a time per
    /// upload. Throws ``UploadStorageError/notFound`` or ``UploadStorageError/conflict(offset:)``.
    func append(id: String, at offset: Int) throws(UploadStorageError) -> any UploadAppender
    /// Removes the upload and its bytes (termination); ``UploadStorageError/notFound`` if there is none.
    func delete(id: String) throws(UploadStorageError)
    /// Removes every upload that expired before `now` (seconds since 1970); how many.
    @discardableResult
    func removeExpired(now: Int) throws(UploadStorageError) -> Int
    /// A finished upload's bytes, read whole: for small files (an image) and tests.
    func contents(id: String) throws(UploadStorageError) -> [UInt8]
}

/// Appends one request's body to an upload. Used by one thread at a time (the one receiving the body).
///
/// Contract: ``write(_:)`` stores bytes after those already written; ``commit()`` makes every byte written so far
/// durable and acknowledged, and returns the new offset; ``close()`` commits what was written and releases the
/// upload for the next appender. Bytes written after the last commit may be lost by a crash, never half-counted.
public protocol UploadAppender: AnyObject {
    /// Stores `bytes` after those written so far.
    func write(_ bytes: UnsafeRawBufferPointer) throws(UploadStorageError)
    /// Acknowledges every byte written so far; the new offset.
    func commit() throws(UploadStorageError) -> Int
    /// Commits (as far as possible) and releases the upload; the offset reached. Called once, last.
    func close() -> Int
}
