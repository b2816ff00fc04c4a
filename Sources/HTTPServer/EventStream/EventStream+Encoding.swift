extension EventStream {
    /// Encodes one event in the `text/event-stream` format, ending with the blank line that
    /// dispatches it.
    ///
    /// ```swift
    /// EventStream.encode(event: "patch", id: "7", data: "a\nb")
    /// // "event: patch\nid: 7\ndata: a\ndata: b\n\n"
    /// ```
    public static func encode(event: String? = nil, id: String? = nil, data: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.utf8.count + 32)
        if let event {
            bytes.append(contentsOf: "event: ".utf8)
            appendWithoutLineBreaks(event, to: &bytes)
            bytes.append(UInt8(ascii: "\n"))
        }
        if let id {
            bytes.append(contentsOf: "id: ".utf8)
            // A NUL in an id makes browsers ignore the field; drop it like the line breaks.
            appendWithoutLineBreaks(id, to: &bytes, droppingNUL: true)
            bytes.append(UInt8(ascii: "\n"))
        }
        appendLines(of: data, prefix: "data: ", to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// Encodes a comment: each line of `text` prefixed with `: `.
    static func encodeComment(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        appendLines(of: text, prefix: ": ", to: &bytes)
        return bytes
    }

    /// The heartbeat comment the server sends on every open stream.
    static let heartbeat: [UInt8] = Array(": hb\n\n".utf8)

    private static func appendLines(of text: String, prefix: String, to bytes: inout [UInt8]) {
        var previousWasCarriageReturn = false
        bytes.append(contentsOf: prefix.utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\r"):
                bytes.append(UInt8(ascii: "\n"))
                bytes.append(contentsOf: prefix.utf8)
                previousWasCarriageReturn = true
                continue
            case UInt8(ascii: "\n"):
                if !previousWasCarriageReturn {
                    bytes.append(UInt8(ascii: "\n"))
                    bytes.append(contentsOf: prefix.utf8)
                }
            default:
                bytes.append(byte)
            }
            previousWasCarriageReturn = false
        }
        bytes.append(UInt8(ascii: "\n"))
    }

    private static func appendWithoutLineBreaks(_ text: String, to bytes: inout [UInt8], droppingNUL: Bool = false) {
        for byte in text.utf8 where byte != UInt8(ascii: "\r") && byte != UInt8(ascii: "\n") {
            if droppingNUL && byte == 0 { continue }
            bytes.append(byte)
        }
    }
}
