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
    // The bytes live in a buffer of our own rather than in a `[UInt8]`: rendering appends a few
    // bytes at a time (a tag name, a quote, a run of text between escapes), and each generic
    // `Array.append(contentsOf:)` cost more than the copy it made. The buffer is copied on write,
    // so `HTMLBuffer` keeps value semantics.
    private var storage: Storage

    /// Creates an empty buffer with room for `capacity` bytes.
    public init(capacity: Int = 4096) {
        storage = Storage(capacity: Swift.max(capacity, 16))
    }

    /// The bytes written so far.
    public var bytes: [UInt8] {
        Array(UnsafeBufferPointer(start: storage.base, count: storage.count))
    }

    /// The number of bytes written so far.
    public var count: Int { storage.count }

    /// Appends markup as is. Never pass user data here: use `appendText` or `appendAttributeValue`.
    public mutating func appendRaw(_ markup: String) {
        var markup = markup
        markup.withUTF8 { append($0) }
    }

    /// Appends raw bytes as is.
    public mutating func appendRaw(bytes raw: some Sequence<UInt8>) {
        for byte in raw { append(byte) }
    }

    /// Appends fixed markup; views use it for their punctuation and fixed attribute names.
    mutating func appendStatic(_ markup: StaticString) {
        markup.withUTF8Buffer { append($0) }
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
        append(0x20)
        appendRaw(name)
        if value.isEmpty { return }
        append(0x3D)  // =
        append(0x22)  // "
        appendEscaped(value)
        append(0x22)
    }

    /// `appendAttribute(_:_:)` for a fixed name.
    mutating func appendAttribute(static name: StaticString, _ value: String) {
        append(0x20)
        appendStatic(name)
        if value.isEmpty { return }
        append(0x3D)  // =
        append(0x22)  // "
        appendEscaped(value)
        append(0x22)
    }

    /// Appends one byte.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        let end = reserve(1)
        end.pointee = byte
        storage.count += 1
    }

    /// Appends `source`'s bytes.
    @inline(__always)
    mutating func append(_ source: UnsafeBufferPointer<UInt8>) {
        guard let start = source.baseAddress, source.count > 0 else { return }
        let end = reserve(source.count)
        end.update(from: start, count: source.count)
        storage.count += source.count
    }

    /// Appends prepared bytes.
    mutating func append(_ prepared: [UInt8]) {
        prepared.withUnsafeBufferPointer { append($0) }
    }

    /// Appends `number` in decimal ASCII digits.
    mutating func appendDecimal(_ number: UInt32) {
        var digits = 1
        var rest = number
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        let start = reserve(digits)
        rest = number
        for offset in stride(from: digits - 1, through: 0, by: -1) {
            start[offset] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        storage.count += digits
    }

    /// Makes the storage unique with room for `extra` more bytes; returns where they go.
    @inline(__always)
    private mutating func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        if !isKnownUniquelyReferenced(&storage) || storage.capacity - storage.count < extra {
            storage = storage.copy(minimumCapacity: storage.count + extra)
        }
        return storage.base + storage.count
    }

    /// The bytes of one buffer value, shared between copies until one of them writes.
    ///
    /// `@unchecked Sendable` and `@exclusivity(unchecked)`: the storage is only written through a
    /// buffer that holds the sole reference (`reserve` copies otherwise), inside a `mutating`
    /// method, so Swift's static exclusivity of the buffer value covers every access.
    private final class Storage: @unchecked Sendable {
        let base: UnsafeMutablePointer<UInt8>
        @exclusivity(unchecked) var count = 0
        let capacity: Int

        init(capacity: Int) {
            base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            self.capacity = capacity
        }

        deinit { base.deallocate() }

        /// A copy with room for at least `minimumCapacity` bytes, growing by doubling.
        func copy(minimumCapacity: Int) -> Storage {
            let copy = Storage(capacity: Swift.max(minimumCapacity, capacity * 2))
            copy.base.initialize(from: base, count: count)
            copy.count = count
            return copy
        }
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
                    append(UnsafeBufferPointer(rebasing: source[chunkStart..<index]))
                }
                if replacedLength > 0 {
                    appendStatic("\u{FFFD}")
                    index += replacedLength
                    chunkStart = index
                    continue
                }
                switch byte {
                case 0x26: appendStatic("&amp;")
                case 0x3C: appendStatic("&lt;")
                case 0x3E: appendStatic("&gt;")
                case 0x22: appendStatic("&quot;")
                case 0x27: appendStatic("&#39;")
                case 0x00: appendStatic("\u{FFFD}")
                default: appendNumericReference(byte)
                }
                index += 1
                chunkStart = index
            }
            if chunkStart < end {
                append(UnsafeBufferPointer(rebasing: source[chunkStart..<end]))
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
        append(0x26)  // &
        append(0x23)  // #
        if byte >= 10 { append(0x30 + byte / 10) }
        append(0x30 + byte % 10)
        append(0x3B)
    }

    /// Bit `n` is set when ASCII byte `n` (below 0x40) must be escaped.
    private static let escapedBytes: UInt64 = {
        var mask: UInt64 = 0
        for byte in 0..<0x20 where byte != 0x09 && byte != 0x0A { mask |= 1 << UInt64(byte) }
        for byte: UInt8 in [0x22, 0x26, 0x27, 0x3C, 0x3E] { mask |= 1 << UInt64(byte) }
        return mask
    }()
}
