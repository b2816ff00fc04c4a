internal import Reactive

/// A file that arrived whole for a ``FileField``: what its client said about it, how long it is, and a way to read it.
///
/// The bytes stay where the upload storage keeps them until an app copies them (a finished upload expires with its
/// storage's lifetime): read them with ``contents()`` off the screen's scheduler when the file may be large.
public struct UploadedFile: Sendable {
    /// The upload's id: the key to it at its endpoint (`/uploads/{id}`).
    public let id: String
    /// The file's name, as its client said (never trusted for its type).
    public let filename: String
    /// The file's type, as its client said (never trusted).
    public let declaredType: String
    /// The file's length in bytes.
    public let length: Int
    private let read: @Sendable () throws -> [UInt8]
    private let remove: @Sendable () throws -> Void

    /// A file `read` reads whole and `discard` removes; for the screen runtime, and tests.
    public init(
        id: String, filename: String, declaredType: String, length: Int, read: @escaping @Sendable () throws -> [UInt8],
        discard: @escaping @Sendable () throws -> Void = {}
    ) {
        self.id = id
        self.filename = filename
        self.declaredType = declaredType
        self.length = length
        self.read = read
        remove = discard
    }

    /// The file's bytes, read whole from the upload storage.
    public func contents() throws -> [UInt8] { try read() }

    /// Removes the file from the upload storage, once the app has kept what it needs of it elsewhere: its room in
    /// the quota comes back now rather than when the upload expires. Removing a file already gone does nothing;
    /// throws when the storage fails.
    public func discard() throws { try remove() }
}

/// How far one upload to a ``FileField`` has come.
public struct FileUploadProgress: Sendable, Equatable {
    /// The upload's id.
    public var id: String
    /// The file's name, as its client said.
    public var filename: String
    /// The bytes stored so far.
    public var received: Int
    /// The file's length.
    public var length: Int

    public init(id: String, filename: String, received: Int, length: Int) {
        self.id = id
        self.filename = filename
        self.received = received
        self.length = length
    }

    /// How much has arrived, from 0 to 1 (1 for an empty file).
    public var fraction: Double { length == 0 ? 1 : Double(received) / Double(length) }
}

/// What happens to the uploads of a ``FileField``, as its binder sees them on `rx.file`.
public enum FileEvent: Sendable {
    /// An upload was created for the field; nothing stored yet (or what a creation carried).
    case started(FileUploadProgress)
    /// More bytes were stored (at most a few times a second, and at the end of each request).
    case progress(FileUploadProgress)
    /// The last byte was stored: the file, whole.
    case finished(UploadedFile)
    /// The upload was refused (its content is not what the field accepts), terminated, or failed; the message is for
    /// the user, and the field shows it as its error.
    case failed(id: String, message: String)
}

/// A file input (`<input type="file">`) with its label, a progress bar and a status line, inside its ``Field``
/// wrapper. Files go to the page's upload endpoint over their own requests (tus, resumable), never over the event
/// stream; the screen runtime delivers what happens to them (``FileEvent``) to the field, which shows the progress,
/// then to the binder's `rx.file`.
///
/// The control carries what any upload client needs, as the page's server supplies it
/// (``RenderContext/uploadAttributes``): the endpoint, the screen's id and the metadata keys it goes under. Its
/// form posts `multipart/form-data`, so that without JavaScript the file goes with the other fields.
///
/// ```html
/// <input data-outlet="posterField" name="poster" type="file" data-label="Poster" accept="image/png,image/jpeg">
/// ```
///
/// ```swift
/// viewController.posterField.rx.file.bind(onNext: driver.posterEvent)
/// ```
public final class FileField: Field {
    /// The upload under way (or the last one, finished), shown as a `<progress>` and a status line; `nil` shows
    /// neither.
    public private(set) var progress: FileUploadProgress? {
        didSet { if progress != oldValue { setNeedsRender() } }
    }

    /// The line under the control: the file being sent, or sent; empty shows none.
    public var statusText = "" {
        didSet { if !statusText.hasSameUTF8(as: oldValue) { setNeedsRender() } }
    }

    /// The events ``deliver(_:)`` passes on; `rx.file` exposes them.
    let fileEvents = PublishRelay<FileEvent>()

    /// An `<input type="file">` with an outlet.
    override class func isInferred(from element: TemplateElement) -> Bool {
        element.tagName == "input" && element.outlet != nil && element.attribute("type")?.lowercased() == "file"
    }

    /// Shows what happened to an upload of this field, then tells `rx.file`, on the screen's scheduler: the screen
    /// runtime calls it as the upload endpoint reports, a harness to play an upload. A disabled field hears its
    /// uploads too (one started before it was disabled still arrives).
    public func deliver(_ event: FileEvent) {
        switch event {
        case .started(let upload):
            markTouched()
            errorMessage = nil
            progress = upload
            statusText = "Sending \(upload.filename)…"
        case .progress(let upload):
            progress = upload
            statusText = "Sending \(upload.filename)…"
        case .finished(let file):
            progress = FileUploadProgress(
                id: file.id, filename: file.filename, received: file.length, length: file.length)
            statusText = "Sent \(file.filename)."
        case .failed(_, let message):
            markTouched()
            progress = nil
            statusText = ""
            errorMessage = message
        }
        fileEvents.accept(event)
    }

    override func renderControl(
        into html: inout HTMLBuffer, context: RenderContext, controlID: String, errorID: String?
    ) {
        html.appendStatic("<input")
        writeControlAttributes(into: &html, controlID: controlID, errorID: errorID)
        html.appendStatic(" type=\"file\"")
        for (name, value) in context.uploadAttributes { html.appendAttribute(name, value) }
        html.append(UInt8(ascii: ">"))
        html.appendStatic("<progress")
        html.appendAttribute(static: "id", domID + "-progress")
        html.appendAttribute(static: "aria-label", label.isEmpty ? "Upload" : label + " upload")
        if let progress {
            html.appendAttribute(static: "value", String(progress.received))
            html.appendAttribute(static: "max", String(max(progress.length, 1)))
            html.appendAttribute(static: "aria-valuenow", String(progress.received))
        } else {
            html.appendStatic(" value=\"0\" max=\"1\" hidden")
        }
        html.append(UInt8(ascii: ">"))
        html.appendStatic("</progress>")
        html.appendStatic("<p class=\"file-status\"")
        html.appendAttribute(static: "id", domID + "-status")
        html.appendStatic(" role=\"status\">")
        html.appendText(statusText)
        html.appendStatic("</p>")
        // The page's upload client shows these while an upload runs, or after one stalled; without it they stay hidden.
        html.appendStatic("<button type=\"button\" class=\"file-cancel\" data-upload-cancel hidden>Cancel</button>")
        html.appendStatic("<button type=\"button\" class=\"file-retry\" data-upload-retry hidden>Retry</button>")
    }
}
