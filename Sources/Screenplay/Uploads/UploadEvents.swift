internal import ViewKit

/// Passes what happens to uploads on to the file fields they name: an upload's `screen` metadata names the live
/// screen, its `field` the ``FileField`` (by name). The event runs on that screen's scheduler, in the order the
/// endpoint told them; an upload whose screen is not live on this instance, or has no such field, is not reported.
enum UploadEvents {
    static func deliverer(to sessions: SessionRegistry, storage: any UploadStorage) -> @Sendable (UploadEvent) -> Void {
        { event in
            let info = event.info
            guard let id = info.metadata[UploadMetadataKey.screen], let field = info.metadata[UploadMetadataKey.field],
                let session = sessions.session(id: id)
            else { return }
            let fileEvent = Self.fileEvent(event, storage: storage)
            session.performLater({ screen in screen.deliverFile(field: field, fileEvent) }, then: { _ in })
        }
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
