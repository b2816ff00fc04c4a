internal import FoundationEssentials
package import HTTPServer
import Primitives
internal import Reactive
internal import Synchronization

/// One browser's event stream, shared by every tab of it: the events of all the screens attached
/// to it travel over one connection, each naming its screen in its id (`id: <screen>.<n>`).
///
/// Contract: a screen is attached at most once; attaching more than ``capacity`` screens is refused; when the
/// connection goes, every attachment closes (each screen forgets it).
package final class SharedStream: Sendable {
    /// The stream's unguessable id, which attach and detach requests name.
    package let id: String
    /// The connection.
    package let stream: EventStream
    /// The most screens attached at once.
    package let capacity: Int
    private let attachments = Locked<[String: SharedStreamAttachment]>([:])

    /// Why an attach was refused.
    package enum AttachRefusal: Error, Equatable {
        case full
        case closed
    }

    package init(id: String, stream: EventStream, capacity: Int) {
        self.id = id
        self.stream = stream
        self.capacity = capacity
        stream.onClose { [attachments] in
            let all = attachments.withLock { all in
                defer { all = [:] }
                return Array(all.values)
            }
            for attachment in all { attachment.close() }
        }
    }

    /// Forgets `attachment`, which closed (``SharedStreamAttachment/close()``), unless another took its screen's place.
    fileprivate func forget(_ attachment: SharedStreamAttachment) {
        attachments.withLock { all in
            if all[attachment.screenID] === attachment {
                all[attachment.screenID] = nil
                stream.isBatching = Self.batches(screenCount: all.count)
            }
        }
    }

    /// How many screens are attached.
    package var screenCount: Int { attachments.withLock { $0.count } }

    /// Makes a place on the stream for the screen `screenID`; one that is there already is replaced (closed).
    package func attach(screenID: String) throws(AttachRefusal) -> SharedStreamAttachment {
        let attachment = SharedStreamAttachment(screenID: screenID, stream: stream, owner: self)
        let result = attachments.withLock { all -> Result<SharedStreamAttachment?, AttachRefusal> in
            if stream.isClosed { return .failure(.closed) }
            if all[screenID] == nil, all.count >= capacity { return .failure(.full) }
            let replaced = all[screenID]
            all[screenID] = attachment
            stream.isBatching = Self.batches(screenCount: all.count)
            return .success(replaced)
        }
        let replaced = try result.get()
        replaced?.close()
        // The stream may have closed after the check, its handler finding the table without this attachment.
        if stream.isClosed { attachment.close() }
        return attachment
    }

    /// Whether a stream carrying `screenCount` screens sends in batches (``EventStream/isBatching``): with more than
    /// one, the screens of a fan-out write to it within moments of each other, each from its own thread, and their
    /// events leave together; a stream of one screen is sent by its writer, at once.
    private static func batches(screenCount: Int) -> Bool { screenCount > 1 }

    /// The attachment of `screenID`, if it is attached.
    package func attachment(of screenID: String) -> SharedStreamAttachment? {
        attachments.withLock { $0[screenID] }
    }

    /// Tells the tabs that the screen `old` was rebuilt from its URL as `new` (its `reset` follows).
    package func announceRebuild(of old: String, as new: String) {
        var json = JSONWriter()
        json.raw("{\"screen\":")
        json.string(new)
        json.raw(",\"replaces\":")
        json.string(old)
        json.raw("}")
        stream.send(event: ScreenWire.Event.rebuilt.rawValue, data: String(decoding: json.bytes, as: UTF8.self))
    }

    /// The stream's first event: its id, which the tabs' attach requests name, the wire version, and the client's
    /// version (a page loaded with another one reloads once).
    package func sendGreeting(client: String) {
        var json = JSONWriter()
        json.raw("{\"stream\":")
        json.string(id)
        json.raw(",\"version\":")
        json.bytes.append(contentsOf: String(ScreenWire.version).utf8)
        json.raw(",\"client\":")
        json.string(client)
        json.raw("}")
        stream.send(event: ScreenWire.Event.stream.rawValue, data: String(decoding: json.bytes, as: UTF8.self))
    }
}

/// A screen's place on a ``SharedStream``: what the screen sends here goes out on the shared connection, named.
///
/// One object per live screen, kept as long as the screen is attached: its state is guarded by a lock inside it (a
/// `Locked` state was a second object). `@unchecked Sendable`: `handler` and `moreHandlers` are read and written only
/// under `lock`; `closed` is atomic, set under `lock`; `owner` is set in the initializer and never again.
package final class SharedStreamAttachment: ScreenEventTarget, @unchecked Sendable {
    package let screenID: String
    private let stream: EventStream
    /// The shared stream, which forgets the attachment when it closes: told directly, where a close handler of its
    /// own was an object for every attachment's life (Benchmarks/History/51-screen-memory-6.md). Weak: the shared
    /// stream goes with its connection, the attachment with its screen (one side table for the shared stream).
    private weak var owner: SharedStream?
    private let lock = InlineLock()
    /// Whether it closed: set under `lock` (which hands out the handlers with it), read by a send without taking it,
    /// as every screen of a fan-out sends (the stream's own lock follows).
    private let closed = Atomic<Bool>(false)
    /// What to call when it closes: the screen's forgetting of it, in a field of its own; any more in an array.
    private var handler: (@Sendable () -> Void)?
    private var moreHandlers: [@Sendable () -> Void] = []

    init(screenID: String, stream: EventStream, owner: SharedStream? = nil) {
        self.screenID = screenID
        self.stream = stream
        self.owner = owner
    }

    @discardableResult
    package func send(_ event: FramedEvent) -> Bool {
        // The attachment's own state only: the connection's closing is the stream's to check, and its send does
        // (asking it here as well took the stream's lock twice for every event).
        guard !closed.load(ordering: .acquiring) else { return false }
        // The shared stream's events name their screen: each screen numbers its own (a session id holds no `.`).
        // Named as the stream writes it, not by a named copy of the event.
        return stream.send(event, inNamespace: screenID)
    }

    package func sendUnnumbered(event: String, data: String) {
        guard !isClosed else { return }
        stream.send(event: event, data: data)
    }

    package var isClosed: Bool { closed.load(ordering: .acquiring) || stream.isClosed }

    package func close() {
        let taken = lock.withLock { () -> (first: (@Sendable () -> Void)?, more: [@Sendable () -> Void])? in
            guard !closed.load(ordering: .relaxed) else { return nil }
            closed.store(true, ordering: .releasing)
            defer {
                handler = nil
                moreHandlers = []
            }
            return (handler, moreHandlers)
        }
        guard let taken else { return }
        owner?.forget(self)
        taken.first?()
        for handler in taken.more { handler() }
    }

    package func onClose(_ handler: @escaping @Sendable () -> Void) {
        let runNow = lock.withLock { () -> Bool in
            if closed.load(ordering: .relaxed) { return true }
            if self.handler == nil {
                self.handler = handler
            } else {
                moreHandlers.append(handler)
            }
            return false
        }
        if runNow { handler() }
    }
}
