/// A growable UTF-8 byte buffer that views render HTML5 into.
///
/// Rendering writes every view of a subtree into one buffer, reserved up front, and escapes text
/// and attribute values in a single pass, so a page costs one allocation in the common case.
///
/// Escaping contract: `appendText(_:)` and `appendAttributeValue(_:)` make any Swift string safe
/// in element content and in a double-quoted attribute value. `&`, `<`, `>`, `"` and `'` become
/// character references; so do the C0 control characters other than tab and line feed, and
/// carriage return (which a parser would otherwise fold into a line feed). U+0000, which HTML
/// cannot carry, becomes U+FFFD, and so do the characters HTML documents must not contain and
/// parsers may replace: DEL, the C1 controls (U+0080–U+009F) and the noncharacters.
///
/// ```swift
/// var html = HTMLBuffer()
/// html.appendRaw("<p>")
/// html.appendText("Tom & Jerry")
/// html.appendRaw("</p>")   // <p>Tom &amp; Jerry</p>
/// ```
public struct HTMLBuffer: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]

    /// Creates an empty buffer with room for `capacity` bytes.
    public init(capacity: Int = 4096) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The number of bytes written so far.
    public var count: Int { bytes.count }

    /// Appends markup as is. Never pass user data here: use `appendText` or `appendAttributeValue`.
    public mutating func appendRaw(_ markup: String) {
        var markup = markup
        markup.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends raw bytes as is.
    public mutating func appendRaw(bytes raw: some Sequence<UInt8>) {
        bytes.append(contentsOf: raw)
    }

    /// Appends `text` escaped for element content.
    public mutating func appendText(_ text: String) {
        appendEscaped(text)
    }

    /// Appends `value` escaped for a double-quoted attribute value (without the quotes).
    public mutating func appendAttributeValue(_ value: String) {
        appendEscaped(value)
    }

    /// Appends ` name="value"`, or ` name` alone when `value` is empty (HTML5's boolean form).
    ///
    /// `name` must be a valid attribute name; `View.setAttribute` checks names on the way in.
    public mutating func appendAttribute(_ name: String, _ value: String) {
        bytes.append(0x20)
        appendRaw(name)
        if value.isEmpty { return }
        bytes.append(contentsOf: [0x3D, 0x22])  // ="
        appendEscaped(value)
        bytes.append(0x22)
    }

    private mutating func appendEscaped(_ string: String) {
        var string = string
        string.withUTF8 { source in
            var chunkStart = 0
            var index = 0
            let end = source.count
            let mask = Self.escapedBytes
            while index < end {
                let byte = source[index]
                // ASCII below 0x40 is checked with one shift and mask; of the rest only DEL and
                // the lead bytes of C1 controls (C2) and noncharacters (EF, F0–F4) need a look.
                var replacedLength = 0
                if byte < 0x40 {
                    if (mask >> UInt64(byte)) & 1 == 0 {
                        index += 1
                        continue
                    }
                } else if byte != 0x7F && byte != 0xC2 && byte < 0xEF {
                    index += 1
                    continue
                } else {
                    replacedLength = Self.forbiddenSequenceLength(source, at: index)
                    if replacedLength == 0 {
                        index += 1
                        continue
                    }
                }
                if chunkStart < index {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[chunkStart..<index]))
                }
                if replacedLength > 0 {
                    bytes.append(contentsOf: Self.replacement)
                    index += replacedLength
                    chunkStart = index
                    continue
                }
                switch byte {
                case 0x26: bytes.append(contentsOf: Self.ampersand)
                case 0x3C: bytes.append(contentsOf: Self.lessThan)
                case 0x3E: bytes.append(contentsOf: Self.greaterThan)
                case 0x22: bytes.append(contentsOf: Self.quotation)
                case 0x27: bytes.append(contentsOf: Self.apostrophe)
                case 0x00: bytes.append(contentsOf: Self.replacement)
                default: appendNumericReference(byte)
                }
                index += 1
                chunkStart = index
            }
            if chunkStart < end {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[chunkStart..<end]))
            }
        }
    }

    /// The length of the UTF-8 sequence at `index` if it encodes a character HTML documents must
    /// not contain (DEL, a C1 control, a noncharacter), else 0. `source` is valid UTF-8.
    private static func forbiddenSequenceLength(_ source: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let byte = source[index]
        let remaining = source.count - index
        switch byte {
        case 0x7F:
            return 1
        case 0xC2:
            return remaining >= 2 && source[index + 1] <= 0x9F ? 2 : 0
        case 0xEF:
            guard remaining >= 3 else { return 0 }
            let second = source[index + 1]
            let third = source[index + 2]
            let isFDD0Block = second == 0xB7 && third >= 0x90 && third <= 0xAF
            let isFFFEOrFFFF = second == 0xBF && third >= 0xBE
            return isFDD0Block || isFFFEOrFFFF ? 3 : 0
        case 0xF0...0xF4:
            guard remaining >= 4 else { return 0 }
            let isPlaneEnd = source[index + 1] & 0x0F == 0x0F && source[index + 2] == 0xBF && source[index + 3] >= 0xBE
            return isPlaneEnd ? 4 : 0
        default:
            return 0
        }
    }

    private mutating func appendNumericReference(_ byte: UInt8) {
        bytes.append(contentsOf: [0x26, 0x23])  // &#
        if byte >= 10 { bytes.append(0x30 + byte / 10) }
        bytes.append(0x30 + byte % 10)
        bytes.append(0x3B)
    }

    /// Bit `n` is set when ASCII byte `n` (below 0x40) must be escaped.
    private static let escapedBytes: UInt64 = {
        var mask: UInt64 = 0
        for byte in 0..<0x20 where byte != 0x09 && byte != 0x0A { mask |= 1 << UInt64(byte) }
        for byte: UInt8 in [0x22, 0x26, 0x27, 0x3C, 0x3E] { mask |= 1 << UInt64(byte) }
        return mask
    }()

    private static let ampersand = Array("&amp;".utf8)
    private static let lessThan = Array("&lt;".utf8)
    private static let greaterThan = Array("&gt;".utf8)
    private static let quotation = Array("&quot;".utf8)
    private static let apostrophe = Array("&#39;".utf8)
    private static let replacement = Array("\u{FFFD}".utf8)
}
