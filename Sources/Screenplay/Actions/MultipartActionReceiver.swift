internal import FoundationEssentials
import Glibc
internal import HTTPServer
import Primitives

/// Where a form's files go when it is posted as `multipart/form-data` (JavaScript off): the application's upload
/// storage, under its limits, the screen's file field told as a tus upload's would be.
struct FormUploads: Sendable {
    let storage: any UploadStorage
    let configuration: UploadConfiguration
    let observer: @Sendable (UploadEvent) -> Void
    /// The room the files of posts still arriving share (``UploadConfiguration/quota``).
    let spools: SpoolBudget
}

/// What the files of form posts still arriving may hold together in temporary files, in bytes: a post whose file
/// would take them past it is refused with `507` and its spool dropped; a spool gives its bytes back when its file
/// has moved to the upload storage, or its post failed or went. Served at `/metrics` as
/// `screenplay_upload_spool_bytes`.
final class SpoolBudget: Sendable {
    let limit: Int
    private let used = Locked(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// The bytes spooled now.
    var inUse: Int { used.withLock { $0 } }

    /// Takes `count` bytes of the room; `false` (nothing taken) when they would pass the limit.
    func take(_ count: Int) -> Bool {
        used.withLock { used in
            guard count <= limit - used else { return false }
            used += count
            return true
        }
    }

    /// Gives back bytes taken.
    func giveBack(_ count: Int) {
        used.withLock { $0 -= count }
    }

    /// The gauge's exposition.
    func exposition() -> String {
        "# HELP screenplay_upload_spool_bytes Bytes of form posts' files held while their posts arrive.\n"
            + "# TYPE screenplay_upload_spool_bytes gauge\nscreenplay_upload_spool_bytes \(inUse)\n"
    }
}

extension ScreenActions {
    /// `POST /screens/{sid}/actions/{action}` as `multipart/form-data`, a form with a file field posted without
    /// JavaScript: the body streams through a ``MultipartParser``; each file goes to the upload storage as it arrives
    /// (spooled to a temporary file, never held in memory), checked against what its field accepts from its first
    /// bytes; then the file field hears `started` and `finished` (or `failed`), and the action runs with the text
    /// fields as the urlencoded post of the same form would, answered `303`. A refused file answers `303` to the
    /// screen's page with the message at its field, the action not run. Other posts go to the ordinary route.
    ///
    /// The form's `csrf` must come before its files (the hidden field is the form's first), so that no file byte is
    /// stored for a post whose token does not verify; limits: a file part at most ``UploadConfiguration/maxSize``, a
    /// text field 16 KiB, 4 KiB of headers per part, 64 parts; the files of every post still arriving together at most
    /// ``UploadConfiguration/quota`` (past it, `507`).
    func receiveMultipartAction(_ request: Request, uploads: FormUploads) throws -> BodyReception {
        guard let boundary = MultipartParser.boundary(ofContentType: request.headers["Content-Type"]) else {
            return .ordinary
        }
        guard request.isSameOrigin else { throw HTTPError(.forbidden, message: "Cross-origin action refused.") }
        guard let pageID = request.parameters["sid"], request.parameters["action"] != nil else {
            throw HTTPError(.notFound, message: "No such screen.")
        }
        return .receive(
            MultipartActionReceiver(
                request: request, pageID: pageID, boundary: boundary, uploads: uploads, actions: self))
    }
}

/// One multipart action post, as it arrives.
private final class MultipartActionReceiver: RequestBodyReceiver {
    private let request: Request
    private let pageID: String
    private let uploads: FormUploads
    private let actions: ScreenActions
    private let parser: MultipartParser
    /// The text fields, in order.
    private var fields: [(name: String, value: String)] = []
    /// The part being read: a text field's bytes, or a file's spool.
    private var part: MultipartPart?
    private var text: [UInt8] = []
    private var spool: Spool?
    /// The session the form's token opened, once its `csrf` field has arrived.
    private var session: ScreenSession?
    /// Files stored, and files refused (field, message).
    private var stored: [UploadInfo] = []
    private var refused: [(field: String, info: UploadInfo, message: String)] = []
    private var failure: Response?

    init(request: Request, pageID: String, boundary: String, uploads: FormUploads, actions: ScreenActions) {
        self.request = request
        self.pageID = pageID
        self.uploads = uploads
        self.actions = actions
        parser = MultipartParser(
            boundary: boundary, limits: MultipartLimits(maxFileSize: uploads.configuration.maxSize))
    }

    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard failure == nil else { return false }
        do {
            try parser.feed(bytes) { event in try handle(event) }
            return true
        } catch let error as MultipartError {
            fail(Self.answer(error))
        } catch let error as HTTPError {
            fail(error.response)
        } catch {
            fail(.error(.serviceUnavailable, message: "The upload storage is not available; try again."))
        }
        return false
    }

    private func fail(_ response: Response) {
        failure = response
        spool?.discard()
        spool = nil
        for info in stored { _ = try? uploads.storage.delete(id: info.id) }
        stored = []
    }

    private static func answer(_ error: MultipartError) -> Response {
        switch error {
        case .tooLarge(let message): .error(.contentTooLarge, message: "The form is too large: \(message).")
        case .malformed(let message): .error(.badRequest, message: "The form's body is malformed: \(message).")
        }
    }

    private func handle(_ event: MultipartParser.Event) throws {
        switch event {
        case .partStarted(let started):
            part = started
            text = []
            guard let filename = started.filename, !filename.isEmpty else { return }
            guard let session = try openSession() else {
                throw HTTPError(
                    .forbidden, message: "This form's token is not valid, or comes after its file. Reload the page.")
            }
            var metadata = [
                UploadMetadataKey.screen: session.id, UploadMetadataKey.field: started.name,
                UploadMetadataKey.filename: String(filename.prefix(255)),
            ]
            if let type = started.contentType { metadata[UploadMetadataKey.filetype] = String(type.prefix(255)) }
            spool = try Spool(
                metadata: metadata, kinds: uploads.configuration.accepts[started.name], budget: uploads.spools)
        case .data(let bytes):
            if let spool {
                try spool.write(bytes)
            } else if part?.filename == nil {
                text += bytes
            }
        case .partEnded:
            guard let part else { return }
            self.part = nil
            if let spool {
                self.spool = nil
                try store(spool, field: part.name)
            } else if part.filename == nil {
                guard let value = String(validating: text, as: UTF8.self) else {
                    throw HTTPError(.badRequest, message: "The field “\(part.name.prefix(64))” is not UTF-8.")
                }
                fields.append((part.name, value))
            }
        }
    }

    /// The session the form's `csrf` (already received) opens: the live one, or the one its page's token builds.
    private func openSession() throws -> ScreenSession? {
        if let session { return session }
        guard let token = fields.first(where: { $0.name == ScreenWire.Field.csrf.rawValue })?.value else { return nil }
        guard case .adopted(let live, _) = try actions.liveSession(pageID, token: token, request: request) else {
            return nil
        }
        guard live.id != pageID || SessionToken.equal(token, live.csrfToken) else { return nil }
        session = live
        return live
    }

    /// Moves a finished file from its spool into the upload storage, or records its refusal.
    private func store(_ spool: Spool, field: String) throws {
        defer { spool.discard() }
        let now = Int(Date().timeIntervalSince1970)
        var info = UploadInfo(
            id: SessionToken.make(), length: spool.length, metadata: spool.metadata,
            expires: now + Int(uploads.configuration.lifetime.components.seconds))
        if let kinds = spool.kinds, !spool.matches {
            refused.append((field, info, TusEndpoint.refusalMessage(spool.metadata, kinds)))
            return
        }
        do {
            try uploads.storage.create(info, quota: uploads.configuration.quota)
        } catch .quotaExceeded {
            throw HTTPError(.insufficientStorage, message: "The upload storage is full; try again later.")
        }
        stored.append(info)
        let appender = try uploads.storage.append(id: info.id, at: 0)
        var done = false
        defer { if !done { _ = appender.close() } }
        try spool.copy { try appender.write($0) }
        done = true
        info.offset = appender.close()
        guard info.offset == info.length else { throw UploadStorageError.failed("the file was not stored whole") }
        stored[stored.count - 1] = info
    }

    func finish() -> Response {
        if failure == nil {
            do { try parser.finish() } catch let error as MultipartError { fail(Self.answer(error)) } catch {}
        }
        if let failure { return failure }
        guard let session = (try? openSession()) ?? nil else {
            for info in stored { _ = try? uploads.storage.delete(id: info.id) }
            return .error(.forbidden, message: "This action's token is not valid. Reload the page and try again.")
        }
        // The file fields hear of their files before the action runs (queued first on the screen).
        for info in stored {
            var begun = info
            begun.offset = 0
            uploads.observer(.started(begun))
            uploads.observer(.finished(info))
        }
        guard refused.isEmpty else {
            for (_, info, message) in refused {
                uploads.observer(.started(info))
                uploads.observer(.failed(info, message: message))
            }
            return .redirect(to: ScreenWire.pagePath(screen: session.id))
        }
        // The action, as the urlencoded post of the form's text fields.
        var headers = request.headers
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        headers["Content-Length"] = nil
        let body = fields.map { Self.encode($0.name) + "=" + Self.encode($0.value) }.joined(separator: "&")
        var form = Request(
            method: .post, target: request.target, headers: headers, body: Array(body.utf8),
            remoteAddress: request.remoteAddress)
        form.parameters = request.parameters
        form.requestID = request.requestID
        do {
            return try actions.performAction(form)
        } catch let error as HTTPError {
            return error.response
        } catch {
            return .error(.internalServerError, message: "Something went wrong on our side.")
        }
    }

    func abandon() {
        spool?.discard()
        spool = nil
        for info in stored { _ = try? uploads.storage.delete(id: info.id) }
    }

    /// `application/x-www-form-urlencoded` encoding: every byte but unreserved ones as `%XX`.
    private static func encode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result +=
                    "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return result
    }
}

/// A file part on its way: written to a temporary file as it arrives, its first bytes checked against the kinds its
/// field accepts, every byte kept taken from the posts' shared room (``SpoolBudget``) until it is discarded.
private final class Spool {
    let metadata: [String: String]
    let kinds: Set<FileKind>?
    private(set) var length = 0
    private var head: [UInt8] = []
    private let path: String
    private var descriptor: Int32
    private let budget: SpoolBudget
    /// The bytes of the room this spool holds.
    private var taken = 0

    init(metadata: [String: String], kinds: Set<FileKind>?, budget: SpoolBudget) throws {
        self.metadata = metadata
        self.kinds = kinds
        self.budget = budget
        var template = Array((FileManager.default.temporaryDirectory.path + "/screenplay-form-XXXXXX").utf8CString)
        descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw UploadStorageError.failed("cannot create a temporary file") }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // Gone from the folder at once: the descriptor keeps it, and nothing is left behind by a crash.
        unlink(path)
    }

    /// Whether the first bytes are of a kind the field accepts.
    var matches: Bool {
        guard let kinds else { return true }
        return FileKind.sniff(head).map(kinds.contains) ?? false
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        length += bytes.count
        if head.count < FileKind.signatureLength { head += bytes.prefix(FileKind.signatureLength - head.count) }
        // Not what the field accepts: nothing more is kept.
        if head.count == FileKind.signatureLength && !matches { return }
        guard budget.take(bytes.count) else {
            throw HTTPError(
                .insufficientStorage, message: "Files being received fill the room for uploads; try again later.")
        }
        taken += bytes.count
        var done = 0
        while done < bytes.count {
            let count = Glibc.write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw UploadStorageError.failed("writing a temporary file") }
            done += count
        }
    }

    /// Reads the spool back, in pieces.
    func copy(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw UploadStorageError.failed("reading a temporary file") }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var total = 0
        while total < length {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw UploadStorageError.failed("reading a temporary file") }
            try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            total += count
        }
    }

    func discard() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        budget.giveBack(taken)
        taken = 0
    }

    deinit { discard() }
}
