public import ViewKit

/// One event on a screen's event stream (wire protocol v1).
///
/// On the wire each is a server-sent event with an increasing `id:` per screen:
/// - `patch`: `data:` a JSON array of operations on elements found by DOM id:
///   `["replace", id, html]`, `["insert", parentID, beforeID|null, html]`, `["remove", id]`,
///   `["move", id, parentID, beforeID|null]`;
/// - `reset`: `data:` `{"events": url, "html": page}` — the whole page, after a gap that cannot be replayed or a
///   rebuilt screen;
/// - `navigate`: `data:` a site-relative URL to go to;
/// - `title`: `data:` the new page title.
public enum ScreenEvent: Equatable, Sendable {
    case patch([ViewChange])
    case reset(eventsURL: String, html: [UInt8])
    case navigate(String)
    case title(String)

    /// The event's name on the wire.
    public var name: String {
        switch self {
        case .patch: "patch"
        case .reset: "reset"
        case .navigate: "navigate"
        case .title: "title"
        }
    }

    /// The event's `data:` payload, one line.
    public var data: [UInt8] {
        var json = JSONWriter()
        switch self {
        case .patch(let changes):
            json.bytes.append(UInt8(ascii: "["))
            for (index, change) in changes.enumerated() {
                if index > 0 { json.bytes.append(UInt8(ascii: ",")) }
                json.append(change)
            }
            json.bytes.append(UInt8(ascii: "]"))
            return json.bytes
        case .reset(let eventsURL, let html):
            json.raw("{\"events\":")
            json.string(eventsURL)
            json.raw(",\"html\":")
            json.string(html)
            json.raw("}")
            return json.bytes
        case .navigate(let url):
            return Array(url.utf8).filter { $0 != 10 && $0 != 13 }
        case .title(let title):
            return Array(title.utf8).map { $0 == 10 || $0 == 13 ? 32 : $0 }
        }
    }

    /// The whole server-sent event, ready for the socket.
    public func encoded(id: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        let payload = data
        bytes.reserveCapacity(payload.count + 40)
        bytes.append(contentsOf: "event: \(name)\nid: \(id)\ndata: ".utf8)
        bytes.append(contentsOf: payload)
        bytes.append(contentsOf: "\n\n".utf8)
        return bytes
    }
}

/// Writes compact JSON into one buffer; strings are escaped in one pass.
struct JSONWriter {
    var bytes: [UInt8] = []

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { string($0) }
    }

    mutating func string(_ utf8: some Collection<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0x00..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                raw("\\u00")
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
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
