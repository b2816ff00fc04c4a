internal import Dispatch
internal import FoundationEssentials
import Glibc
internal import HTTPServer
import Primitives

/// The tus 1.0.0 server at `/uploads` (tus.io): core protocol plus `creation`, `creation-with-upload`, `termination`
/// and `expiration`.
///
/// Contract: every answer carries `Tus-Resumable: 1.0.0`. Refusals come before any byte of a body is read: a request
/// without `Tus-Resumable: 1.0.0` gets 412, another origin or a creation whose metadata does not name a live screen
/// with its CSRF token 403, `Upload-Length` past ``UploadConfiguration/maxSize`` 413, past the quota 507, a body that
/// is not `application/offset+octet-stream` 415, an `Upload-Offset` that is not the stored one 409, an unknown or
/// expired upload 404, malformed headers 400. A body is written to storage as it arrives, never held whole, and never
/// past the upload's declared length. The upload's id (128 random bits) is the key to it: `HEAD`, `PATCH` and
/// `DELETE` need that id and the same origin, not the token, so a client resumes after the screen has gone.
package final class TusEndpoint: Sendable {
    static let path = "/uploads"
    /// How many bytes a body appends at least between acknowledgements, and how long at least between two of them
    /// (nanoseconds): a crash loses at most the larger of the two, this many bytes or that long of sending. The time
    /// keeps a fast body from rewriting its record a thousand times a gigabyte (each a file created and renamed with
    /// ``FileUploadStorage``; what that cost: Benchmarks/History/33-upload-throughput.md).
    static let commitInterval = 1 << 20
    static let commitSpacing: UInt64 = 250_000_000
    /// How often a body being received reports its progress, in nanoseconds (and once at its end).
    static let progressInterval: UInt64 = 100_000_000

    /// The id of the live screen a creation's metadata names, with its CSRF token; `nil` refuses the creation.
    private let authorizes: @Sendable ([String: String], Request) throws -> String?
    private let storage: any UploadStorage
    private let configuration: UploadConfiguration
    private let onFinished: @Sendable (UploadInfo) -> Void
    /// Told what happens to every upload (``UploadEvent``), on the thread that receives the request's body.
    private let observer: @Sendable (UploadEvent) -> Void
    private let clock: @Sendable () -> Int
    private let logger: Logger
    /// Bodies being written now (see ``UploadConfiguration/maxConcurrentWrites``).
    private let writes = Locked(0)
    /// When expired uploads were last removed (seconds since 1970): on a creation, and from the application's sweep
    /// (``sweepExpired()``), at most once a minute (once a lifetime, when uploads live less).
    private let lastSweep = Locked(0)

    /// An endpoint whose creations `authorizes` lets in (see ``authorization(by:router:)``).
    package init(
        authorizes: @escaping @Sendable ([String: String], Request) throws -> String?, storage: any UploadStorage,
        configuration: UploadConfiguration,
        onFinished: @escaping @Sendable (UploadInfo) -> Void, logger: Logger,
        observer: @escaping @Sendable (UploadEvent) -> Void = { _ in },
        clock: @escaping @Sendable () -> Int = { time(nil) }
    ) {
        self.observer = observer
        self.logger = logger
        self.authorizes = authorizes
        self.storage = storage
        self.configuration = configuration
        self.onFinished = onFinished
        self.clock = clock
    }

    /// Lets a creation in when its metadata names a live screen of `sessions` (`screen`) and carries that screen's
    /// CSRF token (`csrf`), compared in constant time; or names a page whose screen is not live yet (a page GET keeps
    /// none) and carries that page's token, for the browser the request comes from: the screen is then built from
    /// the token (`router`), as its stream's attach would. Answers the id the screen lives under (the page's,
    /// unless the page names another instance's), which the upload keeps as its `screen`. A page of another instance
    /// that `instances` reaches keeps its id: its token is checked here, and its screen stays where it lives.
    static func authorization(by sessions: SessionRegistry, router: ScreenRouter, instances: InstanceLink)
        -> @Sendable (
            [String: String], Request
        ) throws -> String?
    {
        { metadata, request in
            let id = metadata[UploadMetadataKey.screen] ?? "", token = metadata[UploadMetadataKey.csrf] ?? ""
            if let session = sessions.session(id: id) {
                return SessionToken.equal(token, session.csrfToken) ? session.id : nil
            }
            guard !id.isEmpty, !token.isEmpty else { return nil }
            if instances.otherInstance(of: id) != nil {
                return try router.admits(screen: id, token: token, request: request, fromScript: true) ? id : nil
            }
            if case .adopted(let session, _) = try router.adopt(
                screen: id, token: token, request: request, fromScript: true)
            {
                return session.id
            }
            return nil
        }
    }

    package func register(on router: Router) {
        let one = Self.path + "/:upload"
        router.add(.options, Self.path) { [self] _ in options() }
        router.add(.options, one) { [self] _ in options() }
        router.receive(.post, Self.path) { [self] in try create($0) }
        router.head(one) { [self] in try head($0) }
        router.receive(.patch, one) { [self] in try patch($0) }
        router.delete(one) { [self] in try terminate($0) }
    }

    // MARK: Requests

    private func options() -> Response {
        var response = Self.answer(.noContent)
        response.headers["Tus-Version"] = TusHeaders.version
        response.headers["Tus-Extension"] = TusHeaders.extensions
        response.headers["Tus-Max-Size"] = String(configuration.maxSize)
        return response
    }

    /// `POST /uploads`: `Upload-Length`, `Upload-Metadata` naming the screen and its CSRF token, and optionally the
    /// first bytes (`creation-with-upload`).
    private func create(_ request: Request) throws -> BodyReception {
        try Self.checkCommon(request)
        guard !request.headers.contains("Upload-Defer-Length") else {
            throw Self.refusal(.badRequest, "Upload-Defer-Length is not supported: send Upload-Length.")
        }
        guard let lengthText = request.headers["Upload-Length"] else {
            throw Self.refusal(.badRequest, "A creation needs Upload-Length.")
        }
        guard let length = TusHeaders.parseCount(lengthText) else {
            throw Self.refusal(.badRequest, "Upload-Length must be a non-negative integer.")
        }
        guard length <= configuration.maxSize else {
            throw Self.refusal(.contentTooLarge, "The upload is larger than \(configuration.maxSize) bytes.")
        }
        guard let metadata = TusHeaders.parseMetadata(request.headers["Upload-Metadata"] ?? "") else {
            throw Self.refusal(.badRequest, "Upload-Metadata is malformed.")
        }
        guard let screenID = try authorizes(metadata, request) else {
            throw Self.refusal(
                .forbidden, "The upload's metadata must name a live screen and carry its CSRF token. Reload the page.")
        }
        if let kinds = accepted(metadata), length < FileKind.signatureLength {
            throw Self.refusal(.unsupportedMediaType, Self.refusalMessage(metadata, kinds))
        }
        let bodyLength = try Self.bodyLength(request)
        if bodyLength != 0 {
            guard TusHeaders.isOffsetContentType(request.headers["Content-Type"]) else {
                throw Self.refusal(.unsupportedMediaType, "Upload bytes must be application/offset+octet-stream.")
            }
            if let bodyLength, bodyLength > length {
                throw Self.refusal(.contentTooLarge, "The body is longer than Upload-Length.")
            }
        }
        let now = clock()
        sweep(now: now)
        var stored = metadata
        // The token opened the door; it is not kept.
        stored.removeValue(forKey: UploadMetadataKey.csrf)
        stored[UploadMetadataKey.screen] = screenID
        let info = UploadInfo(
            id: SessionToken.make(), length: length, metadata: stored,
            expires: now + Int(configuration.lifetime.components.seconds))
        do {
            try storage.create(info, quota: configuration.quota)
        } catch .quotaExceeded {
            throw Self.refusal(.insufficientStorage, "The upload storage is full; try again later.")
        } catch {
            throw storageFailure(error, request)
        }
        var created = Self.answer(.created)
        created.headers["Location"] = "\(Self.path)/\(info.id)"
        created.headers["Upload-Expires"] = HTTPDate.format(secondsSince1970: info.expires)
        observer(.started(info))
        guard bodyLength != 0 else {
            created.headers["Upload-Offset"] = "0"
            if info.isFinished {
                onFinished(info)
                observer(.finished(info))
            }
            return .respond(created)
        }
        guard let slot = takeWriteSlot() else {
            // Created, its body not taken: the client resumes from offset 0 with a PATCH.
            created.headers["Upload-Offset"] = "0"
            return .respond(created)
        }
        let appender: any UploadAppender
        do { appender = try storage.append(id: info.id, at: 0) } catch {
            slot.release()
            throw storageFailure(error, request)
        }
        return .receive(
            TusBodyReceiver(
                info: info, appender: appender, success: created, onFinished: onFinished, logger: logger,
                requestID: request.requestID, sniffing: sniffing(info), storage: storage, slot: slot,
                observer: observer))
    }

    /// `HEAD /uploads/{id}`: the offset stored, the length, the metadata.
    private func head(_ request: Request) throws -> Response {
        try Self.checkCommon(request)
        let info = try live(request)
        var response = Self.answer(.ok)
        response.headers["Upload-Offset"] = String(info.offset)
        response.headers["Upload-Length"] = String(info.length)
        if !info.metadata.isEmpty { response.headers["Upload-Metadata"] = TusHeaders.formatMetadata(info.metadata) }
        if !info.isFinished { response.headers["Upload-Expires"] = HTTPDate.format(secondsSince1970: info.expires) }
        return response
    }

    /// `PATCH /uploads/{id}`: the bytes from `Upload-Offset` on.
    private func patch(_ request: Request) throws -> BodyReception {
        try Self.checkCommon(request)
        guard TusHeaders.isOffsetContentType(request.headers["Content-Type"]) else {
            throw Self.refusal(.unsupportedMediaType, "A PATCH body must be application/offset+octet-stream.")
        }
        guard let offset = request.headers["Upload-Offset"].flatMap(TusHeaders.parseCount) else {
            throw Self.refusal(.badRequest, "A PATCH needs Upload-Offset, a non-negative integer.")
        }
        let info = try live(request)
        guard offset == info.offset else {
            var conflict = Self.answer(.conflict, "Upload-Offset is \(offset); the upload is at \(info.offset).")
            conflict.headers["Upload-Offset"] = String(info.offset)
            return .respond(conflict)
        }
        if let bodyLength = try Self.bodyLength(request), offset + bodyLength > info.length {
            throw Self.refusal(.contentTooLarge, "The body goes past Upload-Length.")
        }
        guard let slot = takeWriteSlot() else {
            var busy = Self.answer(.serviceUnavailable, "Too many uploads are being written; try again shortly.")
            busy.headers["Retry-After"] = "1"
            return .respond(busy)
        }
        let appender: any UploadAppender
        do {
            appender = try storage.append(id: info.id, at: offset)
        } catch .conflict(let stored) {
            slot.release()
            var conflict = Self.answer(.conflict, "Another request is writing to this upload, or it moved on.")
            conflict.headers["Upload-Offset"] = String(stored)
            return .respond(conflict)
        } catch .notFound {
            slot.release()
            throw Self.refusal(.notFound, "No such upload.")
        } catch {
            slot.release()
            throw storageFailure(error, request)
        }
        return .receive(
            TusBodyReceiver(
                info: info, appender: appender, success: Self.answer(.noContent), onFinished: onFinished,
                logger: logger, requestID: request.requestID, sniffing: sniffing(info), storage: storage,
                slot: slot, observer: observer))
    }

    /// `DELETE /uploads/{id}`: termination.
    private func terminate(_ request: Request) throws -> Response {
        try Self.checkCommon(request)
        let info = try live(request)
        do { try storage.delete(id: info.id) } catch .notFound {
            throw Self.refusal(.notFound, "No such upload.")
        } catch { throw storageFailure(error, request) }
        observer(.failed(info, message: "The upload was cancelled."))
        return Self.answer(.noContent)
    }

    /// A place among the bodies written at once, or `nil` when all are taken.
    private func takeWriteSlot() -> WriteSlot? {
        let taken = writes.withLock { count -> Bool in
            guard count < configuration.maxConcurrentWrites else { return false }
            count += 1
            return true
        }
        return taken ? WriteSlot(writes) : nil
    }

    // MARK: Checks

    /// What the upload's field accepts, when ``UploadConfiguration/accepts`` names it.
    private func accepted(_ metadata: [String: String]) -> Set<FileKind>? {
        configuration.accepts[metadata[UploadMetadataKey.field] ?? ""]
    }

    /// The kinds a body starting at offset 0 is checked against, and the refusal's message.
    private func sniffing(_ info: UploadInfo) -> (Set<FileKind>, String)? {
        guard info.offset == 0, let kinds = accepted(info.metadata) else { return nil }
        return (kinds, Self.refusalMessage(info.metadata, kinds))
    }

    /// "Poster: choose a PNG, JPEG or WebP image; photo.gif is not one."
    static func refusalMessage(_ metadata: [String: String], _ kinds: Set<FileKind>) -> String {
        let name = (metadata[UploadMetadataKey.filename] ?? "").prefix(100)
        let which = name.isEmpty ? "this file" : String(name)
        return "Choose \(FileKind.phrase(kinds)); \(which) is not one."
    }

    /// The upload the request names, unless it is unknown or has expired unfinished (then removed).
    private func live(_ request: Request) throws -> UploadInfo {
        let id = request.parameters["upload"] ?? ""
        guard FileUploadStorage.isWellFormed(id) else { throw Self.refusal(.notFound, "No such upload.") }
        let found: UploadInfo?
        do { found = try storage.info(id: id) } catch { throw storageFailure(error, request) }
        guard let info = found else { throw Self.refusal(.notFound, "No such upload.") }
        if info.expires < clock() {
            _ = try? storage.delete(id: id)
            throw Self.refusal(.notFound, "This upload has expired.")
        }
        return info
    }

    /// What every request but `OPTIONS` needs: `Tus-Resumable: 1.0.0`, and the same origin.
    private static func checkCommon(_ request: Request) throws {
        guard request.headers["Tus-Resumable"] == TusHeaders.version else {
            var error = refusal(
                .preconditionFailed, "This server speaks tus \(TusHeaders.version): send Tus-Resumable.")
            error.headers["Tus-Version"] = TusHeaders.version
            throw error
        }
        guard request.isSameOrigin else { throw refusal(.forbidden, "Cross-origin upload refused.") }
    }

    /// The body's declared length: `nil` when it is chunked, 0 when there is none.
    private static func bodyLength(_ request: Request) throws -> Int? {
        if let text = request.headers["Content-Length"] {
            guard let length = TusHeaders.parseCount(text) else {
                throw refusal(.badRequest, "Content-Length must be a non-negative integer.")
            }
            return length
        }
        return request.headers.contains("Transfer-Encoding") ? nil : 0
    }

    /// Removes expired uploads when it is time: the application's sweep calls it every few seconds, so that an
    /// unfinished upload's bytes go soon after it expires even when no upload is created.
    package func sweepExpired() {
        sweep(now: clock())
    }

    /// Removes expired uploads, at most once a minute (once a lifetime, when uploads live less).
    private func sweep(now: Int) {
        let interval = max(1, min(60, Int(configuration.lifetime.components.seconds)))
        let due = lastSweep.withLock { last in
            guard now - last >= interval else { return false }
            last = now
            return true
        }
        if due { _ = try? storage.removeExpired(now: now) }
    }

    // MARK: Answers

    static func answer(_ status: HTTPStatus, _ message: String? = nil) -> Response {
        var response = message.map { Response.error(status, message: $0) } ?? Response(status: status)
        response.headers["Tus-Resumable"] = TusHeaders.version
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    static func refusal(_ status: HTTPStatus, _ message: String) -> HTTPError {
        HTTPError(
            status, message: message, headers: ["Tus-Resumable": TusHeaders.version, "Cache-Control": "no-store"])
    }

    private func storageFailure(_ error: UploadStorageError, _ request: Request) -> HTTPError {
        logger.log(.error, "upload.storage_failed", ["error": "\(error)", "request_id": request.requestID])
        return Self.refusal(.serviceUnavailable, "The upload storage is not available; try again.")
    }
}

/// The metadata keys (in `Upload-Metadata`) that tie an upload to its screen.
public enum UploadMetadataKey {
    /// The screen session's id (the page's `data-screen`).
    public static let screen = ScreenWire.Field.screen.rawValue
    /// The page's CSRF token (the `csrf` hidden input, `<html data-csrf>`).
    public static let csrf = ScreenWire.Field.csrf.rawValue
    /// The file input's name.
    public static let field = "field"
    /// The file's name, as the client says (never trusted for its type).
    public static let filename = "filename"
    /// The file's type, as the client says (never trusted).
    public static let filetype = "filetype"
}

/// Streams one body into an upload: refuses bytes past the upload's length, acknowledges once both
/// ``TusEndpoint/commitInterval`` bytes and ``TusEndpoint/commitSpacing`` have passed since the last time, and at the
/// end, and answers with the offset reached.
private final class TusBodyReceiver: RequestBodyReceiver {
    private var info: UploadInfo
    private let appender: any UploadAppender
    private var success: Response
    private let onFinished: @Sendable (UploadInfo) -> Void
    private let logger: Logger
    private let requestID: String
    private var position: Int
    private var sinceCommit = 0
    private var failure: Response?
    /// While the first bytes are checked: the kinds accepted, the refusal's message, and the bytes held back until
    /// they are known to be one of them (nothing is stored before).
    private var sniffing: (Set<FileKind>, String)?
    private var held: [UInt8] = []
    private let storage: any UploadStorage
    private var isRefusedContent = false
    private var refusalMessage = ""
    private let slot: WriteSlot
    private let observer: @Sendable (UploadEvent) -> Void
    /// When progress was last reported, and when bytes were last acknowledged (monotonic nanoseconds).
    private var lastReport: UInt64
    private var lastCommit: UInt64

    init(
        info: UploadInfo, appender: any UploadAppender, success: Response,
        onFinished: @escaping @Sendable (UploadInfo) -> Void, logger: Logger, requestID: String,
        sniffing: (Set<FileKind>, String)?, storage: any UploadStorage, slot: WriteSlot,
        observer: @escaping @Sendable (UploadEvent) -> Void
    ) {
        self.observer = observer
        lastReport = DispatchTime.now().uptimeNanoseconds
        lastCommit = lastReport
        self.slot = slot
        self.sniffing = sniffing
        self.storage = storage
        self.logger = logger
        self.info = info
        self.appender = appender
        self.success = success
        self.onFinished = onFinished
        self.requestID = requestID
        position = info.offset
    }

    /// A large body's pieces come from a reader of its own, up to 256 KiB at a time (a full one the appender writes
    /// without copying it), instead of libmicrohttpd's pieces of a few KiB (Benchmarks/History/33). Every
    /// piece comes here one at a time, and the appender, the storage and the observer take any thread.
    var takesLargePieces: Bool { true }

    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard failure == nil else { return false }
        guard position + held.count + bytes.count <= info.length else {
            failure = TusEndpoint.answer(.contentTooLarge, "The body goes past Upload-Length.")
            return false
        }
        if let (kinds, message) = sniffing {
            held += bytes
            guard held.count >= FileKind.signatureLength else { return true }
            guard let kind = FileKind.sniff(held), kinds.contains(kind) else {
                refuseContent(message)
                return false
            }
            sniffing = nil
            let first = held
            held = []
            return first.withUnsafeBytes { store($0) }
        }
        return store(bytes)
    }

    private func refuseContent(_ message: String) {
        refusalMessage = message
        failure = TusEndpoint.answer(.unsupportedMediaType, message)
        isRefusedContent = true
        held = []
    }

    private func store(_ bytes: UnsafeRawBufferPointer) -> Bool {
        do {
            try appender.write(bytes)
            position += bytes.count
            sinceCommit += bytes.count
            let now = DispatchTime.now().uptimeNanoseconds
            reportProgress(now: now)
            if sinceCommit >= TusEndpoint.commitInterval && now &- lastCommit >= TusEndpoint.commitSpacing {
                sinceCommit = 0
                lastCommit = now
                _ = try appender.commit()
            }
            return true
        } catch {
            logger.log(.error, "upload.write_failed", ["error": "\(error)", "request_id": requestID])
            failure = TusEndpoint.answer(.serviceUnavailable, "The upload storage failed; resume from Upload-Offset.")
            return false
        }
    }

    /// Reports the bytes stored so far, at most every ``TusEndpoint/progressInterval``.
    private func reportProgress(now: UInt64) {
        guard now &- lastReport >= TusEndpoint.progressInterval, position < info.length else { return }
        lastReport = now
        var progress = info
        progress.offset = position
        observer(.progress(progress))
    }

    func finish() -> Response {
        if let (_, message) = sniffing, failure == nil {
            // The body ended before the first bytes could tell what the file is.
            refuseContent(message)
        }
        let offset = appender.close()
        slot.release()
        if isRefusedContent {
            // Nothing of it was stored; the upload goes, so that its client starts again with another file.
            _ = try? storage.delete(id: info.id)
            let refusal = failure ?? TusEndpoint.answer(.unsupportedMediaType, "Refused.")
            observer(.failed(info, message: refusalMessage))
            return refusal
        }
        var response = failure ?? success
        response.headers["Upload-Offset"] = String(offset)
        let started = info.offset
        info.offset = offset
        if !info.isFinished {
            response.headers["Upload-Expires"] = HTTPDate.format(secondsSince1970: info.expires)
            if offset > started { observer(.progress(info)) }
        } else if failure == nil && offset > started {
            // Once, by the request that stored the last byte (an empty PATCH to a finished upload changes nothing).
            onFinished(info)
            observer(.finished(info))
        }
        return response
    }

    func abandon() {
        let offset = appender.close()
        slot.release()
        // The client went: what it sent is kept, and it resumes from there.
        if offset > info.offset && offset < info.length {
            var progress = info
            progress.offset = offset
            observer(.progress(progress))
        }
    }
}

/// One body's place among those written at once: given back once, by ``release()`` or when dropped.
final class WriteSlot: Sendable {
    private let count: Locked<Int>
    private let held = Locked(true)

    init(_ count: Locked<Int>) {
        self.count = count
    }

    func release() {
        guard
            held.withLock({ held in
                defer { held = false }; return held
            })
        else { return }
        count.withLock { $0 -= 1 }
    }

    deinit {
        release()
    }
}

/// What happens to an upload, as the endpoint tells its observer: the screen runtime passes it on to the file field the
/// upload names (``FileEvent``).
package enum UploadEvent: Sendable {
    /// Created (offset 0).
    case started(UploadInfo)
    /// Bytes were stored: the info's offset is how many so far.
    case progress(UploadInfo)
    /// The last byte was stored.
    case finished(UploadInfo)
    /// Refused for its content, terminated, or failed, with the message for the user.
    case failed(UploadInfo, message: String)

    /// The upload it is about.
    package var info: UploadInfo {
        switch self {
        case .started(let info), .progress(let info), .finished(let info), .failed(let info, _): info
        }
    }
}
