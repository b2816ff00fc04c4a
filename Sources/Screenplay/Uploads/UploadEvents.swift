internal import FoundationEssentials
internal import ViewKit

/// Passes what happens to uploads on to the file fields they name: an upload's `screen` metadata names the live
/// screen, its `field` the ``FileField`` (by name). The event runs on that screen's scheduler, in the order the
/// endpoint told them. An upload whose screen another instance holds has its events sent there (``InstanceLink``),
/// where they are delivered the same way; one whose screen is live nowhere we can reach, or has no such field, is not
/// reported.
enum UploadEvents {
    /// The kind of ``InstanceLink`` message that carries an upload's event.
    static let messageKind = "upload"

    static func deliverer(to sessions: SessionRegistry, storage: any UploadStorage, instances: InstanceLink)
        -> @Sendable (UploadEvent) -> Void
    {
        instances.handle(messageKind) { body in
            guard let event = RelayedUploadEvent.decode(body) else { return }
            deliverHere(event, to: sessions, storage: storage)
        }
        return { event in
            guard let id = event.info.metadata[UploadMetadataKey.screen] else { return }
            if sessions.session(id: id) == nil, let instance = instances.otherInstance(of: id) {
                instances.send(messageKind, RelayedUploadEvent(event).encoded(), to: instance)
                return
            }
            deliverHere(event, to: sessions, storage: storage)
        }
    }

    /// Delivers `event` to its field, when its screen is live on this instance.
    private static func deliverHere(_ event: UploadEvent, to sessions: SessionRegistry, storage: any UploadStorage) {
        let info = event.info
        guard let id = info.metadata[UploadMetadataKey.screen], let field = info.metadata[UploadMetadataKey.field],
            let session = sessions.session(id: id)
        else { return }
        let fileEvent = Self.fileEvent(event, storage: storage)
        session.performLater({ screen in screen.deliverFile(field: field, fileEvent) }, then: { _ in })
    }

    /// The field's view of `event`; a finished upload's file reads its bytes from `storage`.
    static func fileEvent(_ event: UploadEvent, storage: any UploadStorage) -> FileEvent {
        let info = event.info
        let filename = info.metadata[UploadMetadataKey.filename] ?? ""
        let progress = FileUploadProgress(id: info.id, filename: filename, received: info.offset, length: info.length)
        switch event {
        case .started: return .started(progress)
        case .progress: return .progress(progress)
        case .finished:
            let id = info.id
            return .finished(
                UploadedFile(
                    id: id, filename: filename, declaredType: info.metadata[UploadMetadataKey.filetype] ?? "",
                    length: info.length, read: { try storage.contents(id: id) },
                    discard: {
                        do throws(UploadStorageError) { try storage.delete(id: id) } catch .notFound {}
                    }))
        case .failed(_, let message): return .failed(id: info.id, message: message)
        }
    }
}

/// An ``UploadEvent`` as one instance sends it to another: the upload's id, length and offset, the metadata a field
/// needs (screen, field, and the file's name and type cut to 255 characters) and a failure's message (500).
struct RelayedUploadEvent: Codable {
    var kind: String
    var id: String
    var length: Int
    var offset: Int
    var expires: Int
    var metadata: [String: String]
    var message: String?

    init(_ event: UploadEvent) {
        let info = event.info
        id = info.id
        length = info.length
        offset = info.offset
        expires = info.expires
        metadata = [:]
        for key in [UploadMetadataKey.screen, UploadMetadataKey.field, UploadMetadataKey.filename]
            + [UploadMetadataKey.filetype]
        {
            metadata[key] = info.metadata[key].map { String($0.prefix(255)) }
        }
        switch event {
        case .started: kind = "started"
        case .progress: kind = "progress"
        case .finished: kind = "finished"
        case .failed(_, let message):
            kind = "failed"
            self.message = String(message.prefix(500))
        }
    }

    func encoded() -> String {
        (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// The event `body` carries, or `nil` for anything else.
    static func decode(_ body: String) -> UploadEvent? {
        guard let relayed = try? JSONDecoder().decode(Self.self, from: Data(body.utf8)) else { return nil }
        let info = UploadInfo(
            id: relayed.id, length: relayed.length, offset: relayed.offset, metadata: relayed.metadata,
            expires: relayed.expires)
        switch relayed.kind {
        case "started": return .started(info)
        case "progress": return .progress(info)
        case "finished": return .finished(info)
        case "failed": return .failed(info, message: relayed.message ?? "")
        default: return nil
        }
    }
}
