internal import HTTPServer
import Primitives
public import ViewKit

/// One event of a screen, as the wire protocol (`ScreenWire`) sends it.
///
/// On the wire each is a server-sent event whose id names its screen and increases per screen (`id: {sid}.{n}`):
/// - `patch`: `data:` a JSON array of operations on elements found by DOM id:
///   `["replace", id, html]`, `["insert", parentID, beforeID|null, html]`, `["remove", id]`,
///   `["move", id, parentID, beforeID|null]`;
/// - `reset`: `data:` `{"html": page}` — the whole page, after a gap that cannot be replayed or a
///   rebuilt screen;
/// - `navigate`: `data:` a site-relative URL to go to;
/// - `title`: `data:` the new page title;
/// - `ack`: `data:` the id an action post carried (`_aid`): the patch it caused came before;
/// - `url`: `data:` the screen's URL, changed in place (the page replaces its history entry).
public enum ScreenEvent: Equatable, Sendable {
    case patch([ViewChange])
    case reset(html: [UInt8])
    case navigate(String)
    case title(String)
    /// The post with this id (an action's `_aid`) has been answered: the patch it caused came before.
    case ack(String)
    /// The screen's URL changed in place (a search query, say): the page replaces its history entry with it.
    case url(String)

    /// The event's name on the wire.
    public var name: String {
        switch self {
        case .patch: ScreenWire.Event.patch.rawValue
        case .reset: ScreenWire.Event.reset.rawValue
        case .navigate: ScreenWire.Event.navigate.rawValue
        case .title: ScreenWire.Event.title.rawValue
        case .ack: ScreenWire.Event.ack.rawValue
        case .url: ScreenWire.Event.url.rawValue
        }
    }

    /// The event's `data:` payload, one line. A patch the same as the last one encoded shares its bytes
    /// (``PatchEncoding``).
    public var data: [UInt8] {
        guard case .patch(let changes) = self else { return encodedData() }
        return PatchEncoding.shared.data(for: changes) { ScreenEvent.patch($0).encodedData() }
    }

    private func encodedData() -> [UInt8] {
        var json = JSONWriter()
        json.bytes.reserveCapacity(estimatedDataCount)
        writeData(into: &json)
        return json.bytes
    }

    /// The whole server-sent event, ready for the socket: `event:`, `id:` and `data:` lines and a blank line.
    ///
    /// A screen's streams frame its events themselves, the same bytes (``FramedEvent``); this is the event in one
    /// buffer, for tests and tools.
    public func encoded(id: Int) -> [UInt8] {
        FramedEvent(name: name, id: id, lineOfData: data).bytes
    }

    /// Room for the payload: the markup plus its framing and some escapes.
    private var estimatedDataCount: Int {
        switch self {
        case .patch(let changes):
            changes.reduce(2) { total, change in
                switch change {
                case .replace(_, let html), .insert(_, _, let html): total + html.count + html.count / 8 + 48
                case .remove, .move: total + 48
                }
            }
        case .reset(let html): html.count + html.count / 8 + 16
        case .navigate(let url): url.utf8.count
        case .title(let title): title.utf8.count
        case .ack(let id): id.utf8.count
        case .url(let url): url.utf8.count
        }
    }

    private func writeData(into json: inout JSONWriter) {
        switch self {
        case .patch(let changes):
            json.bytes.append(UInt8(ascii: "["))
            for (index, change) in changes.enumerated() {
                if index > 0 { json.bytes.append(UInt8(ascii: ",")) }
                json.append(change)
            }
            json.bytes.append(UInt8(ascii: "]"))
        case .reset(let html):
            json.raw("{\"html\":")
            json.string(html)
            json.raw("}")
        case .navigate(let url):
            json.bytes.append(contentsOf: url.utf8.lazy.filter { $0 != 10 && $0 != 13 })
        case .title(let title):
            json.bytes.append(contentsOf: title.utf8.lazy.map { $0 == 10 || $0 == 13 ? 32 : $0 })
        case .ack(let id), .url(let id):
            json.bytes.append(contentsOf: id.utf8.lazy.filter { $0 != 10 && $0 != 13 })
        }
    }
}

/// Writes compact JSON into one buffer; strings are escaped in one pass.
struct JSONWriter {
    var bytes: [UInt8] = []

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ text: String) {
        text.withUTF8Bytes { string($0) }
    }

    mutating func string(_ utf8: [UInt8]) {
        utf8.withUnsafeBufferPointer { string($0) }
    }

    /// Appends `utf8` as a JSON string. Runs of bytes that need no escape (most of any markup) are
    /// copied whole; only quotes, backslashes and control characters are escaped.
    mutating func string(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
            runStart = index + 1
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            default:
                raw("\\u00")
                bytes.append(Self.hexDigit(byte >> 4))
                bytes.append(Self.hexDigit(byte & 0xF))
            }
        }
        if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    mutating func optionalString(_ text: String?) {
        if let text { string(text) } else { raw("null") }
    }

    mutating func append(_ change: ViewChange) {
        switch change {
        case .replace(let id, let html):
            raw("[\"replace\",")
            string(id)
            raw(",")
            string(html)
        case .insert(let parentID, let beforeID, let html):
            raw("[\"insert\",")
            string(parentID)
            raw(",")
            optionalString(beforeID)
            raw(",")
            string(html)
        case .remove(let id):
            raw("[\"remove\",")
            string(id)
        case .move(let id, let parentID, let beforeID):
            raw("[\"move\",")
            string(id)
            raw(",")
            string(parentID)
            raw(",")
            optionalString(beforeID)
        }
        raw("]")
    }
}
