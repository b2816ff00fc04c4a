/// How an application takes resumable uploads at `/uploads` (see ``Application/acceptUploads(_:storage:onFinished:)``).
///
/// ```swift
/// var uploads = UploadConfiguration(folder: ".data/uploads")
/// uploads.maxSize = 16 << 20      // Tus-Max-Size: larger uploads get 413 before a byte is read
/// uploads.quota = 4 << 30         // what every live upload may take together; past it, 507
/// ```
public struct UploadConfiguration: Sendable, Equatable {
    /// The folder ``FileUploadStorage`` keeps uploads in (unused with a storage of the app's own).
    public var folder: String
    /// The largest upload accepted, in bytes (`Tus-Max-Size`); default 64 MiB.
    public var maxSize: Int
    /// What every live upload may take together, in bytes: a creation that would pass it is refused (507); default
    /// 1 GiB. The files of form posts still arriving (JavaScript off), held in temporary files until their posts end,
    /// share a room of the same size: a post whose file would pass it is refused (507) too.
    public var quota: Int
    /// How long an upload may take from its creation; then it expires (`Upload-Expires`) and is removed, finished or
    /// not: an app keeps a finished file by copying it elsewhere. Default 24 hours.
    public var lifetime: Duration
    /// What the named fields accept, told from each file's first bytes (``FileKind/sniff(_:)``): an upload whose
    /// `field` metadata names one here and whose content is another kind is refused with `415` and a message, and
    /// removed; its first `PATCH` (or the creation's body) must carry at least ``FileKind/signatureLength`` bytes.
    /// Fields not named accept any content.
    public var accepts: [String: Set<FileKind>]
    /// How many bodies may be written at once on this instance; more get `503` with `Retry-After` (tus clients retry).
    /// Each holds a little memory (a storage's chunk buffer) and a disk or database writer. Default 64.
    public var maxConcurrentWrites: Int

    public init(
        folder: String, maxSize: Int = 64 << 20, quota: Int = 1 << 30, lifetime: Duration = .seconds(24 * 3600),
        accepts: [String: Set<FileKind>] = [:], maxConcurrentWrites: Int = 64
    ) {
        self.maxConcurrentWrites = maxConcurrentWrites
        self.folder = folder
        self.maxSize = maxSize
        self.quota = quota
        self.lifetime = lifetime
        self.accepts = accepts
    }
}
