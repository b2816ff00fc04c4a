import Glibc
import Primitives

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
    // bytes at a time (a tag name, a quote, a run of text between escapes), each a copy into
    // reserved room rather than a generic `Array.append(contentsOf:)` (receipt: the first row of
    // Benchmarks/History/08-third-round-templates-and-rendering.md). The buffer is copied on
    // write, so `HTMLBuffer` keeps value semantics.
    private var storage: Storage

    /// The DOM id allocator of the tree the render walk is in, for the view ``idScopeView`` names (see
    /// `View.renderSubviews`): a view rendered by the walk takes its generated id from here instead of walking to its
    /// root for each. Nil outside the walk; a view that is not the one named finds its tree's allocator itself. A
    /// subtree moved to another tree while it renders numbers the rest of that render from the tree it started in.
    var idAllocator: DOMIDAllocator?
    /// The view the render walk is rendering with ``idAllocator``: a subview of the view rendering it, alive for as
    /// long as it is named here (the walk restores the name it found when the subview's render returns).
    var idScopeView: ObjectIdentifier?

    /// Creates an empty buffer with room for `capacity` bytes.
    public init(capacity: Int = 4096) {
        storage = Storage(capacity: Swift.max(capacity, 16))
    }

    /// Runs `body` with an empty buffer and returns what it returns, taking the buffer's storage from this thread's
    /// spare (left by the last render on the thread) and giving it back afterwards.
    ///
    /// For renders whose result is the copy `bytes` makes: a screen's patch renders one changed element per change
    /// on each screen of a fan-out, and a page a few kilobytes, without allocating, growing and freeing a buffer of
    /// their own (receipt: `HTMLBuffer's spare` in Benchmarks/History/26-receipts.md). A render inside `body` (none
    /// does today) gets a buffer of its own. The spare is kept while it is at most `spareLimit` bytes and freed when
    /// its thread ends; it holds no bytes a later render can read (`count` is reset when it is taken).
    ///
    /// ```swift
    /// let bytes = HTMLBuffer.withReusedStorage(capacity: 1024) { html in
    ///     html.appendText("Tom & Jerry")
    ///     return html.bytes
    /// }
    /// ```
    package static func withReusedStorage<Result>(capacity: Int, _ body: (inout HTMLBuffer) -> Result) -> Result {
        var buffer = HTMLBuffer(reusing: Storage.takeSpare(), capacity: capacity)
        let result = body(&buffer)
        if isKnownUniquelyReferenced(&buffer.storage) && buffer.storage.capacity <= spareLimit {
            Storage.keepSpare(buffer.storage)
        }
        return result
    }

    /// Which storage the buffer writes into, and its size, for tests of its reuse.
    package var storageIdentity: ObjectIdentifier { ObjectIdentifier(storage) }
    package var storageCapacity: Int { storage.capacity }

    /// The largest storage a thread keeps for its next render (a page is about 3 KB).
    static var spareLimit: Int { 64 * 1024 }

    private init(reusing spare: Storage?, capacity: Int) {
        if let spare {
            spare.count = 0
            storage = spare
        } else {
            storage = Storage(capacity: Swift.max(capacity, 16))
        }
    }

    /// The bytes written so far.
    public var bytes: [UInt8] {
        Array(UnsafeBufferPointer(start: storage.base, count: storage.count))
    }

    /// The number of bytes written so far.
    public var count: Int { storage.count }

    /// Appends markup as is. Never pass user data here: use `appendText` or `appendAttributeValue`.
    public mutating func appendRaw(_ markup: String) {
        markup.withUTF8Bytes { append($0) }
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
        name.withUTF8Bytes { name in
            value.withUTF8Bytes { value in appendAttribute(name: name, value: value) }
        }
    }

    /// `appendAttribute(_:_:)` for a fixed name.
    mutating func appendAttribute(static name: StaticString, _ value: String) {
        name.withUTF8Buffer { name in
            value.withUTF8Bytes { value in appendAttribute(name: name, value: value) }
        }
    }

    /// ` name="value"` (or ` name`) from the name's and the value's bytes, with one reservation for the whole
    /// attribute when the value fits one escape block: room for the name, its punctuation and the value's worst case.
    /// Each reservation checks that the storage is unique; writing the six pieces with their own took six (receipt:
    /// step 1 of Benchmarks/History/71-page-instructions-12.md). Invariant: every byte written lies in the reserved
    /// room, and the count grows by exactly the bytes written.
    @inline(__always)
    private mutating func appendAttribute(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        guard value.count <= Self.escapeBlock else {
            append(0x20)
            append(name)
            append(0x3D)  // =
            append(0x22)  // "
            appendEscaped(bytes: value)
            return append(0x22)
        }
        // ` `, the name, `="`, the value escaped (as `appendEscaped(bytes:)` reserves for one block) and `"`.
        var out = reserve(name.count + 4 + (value.count + 3) * 6)
        let written = out
        out[0] = 0x20
        out += 1
        if let start = name.baseAddress { Self.copy(start, count: name.count, to: &out) }
        if let input = value.baseAddress, value.count > 0 {
            out[0] = 0x3D  // =
            out[1] = 0x22  // "
            out += 2
            // The whole value is one block, so the escape ends at its end.
            _ = Self.escape(value, input, from: 0, upTo: value.count, into: &out)
            out[0] = 0x22
            out += 1
        }
        storage.count += out - written
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
        let digits = Self.decimalDigitCount(number)
        Self.writeDecimal(number, digits: digits, to: reserve(digits))
        storage.count += digits
    }

    /// How many decimal digits `number` has (one for zero).
    @inline(__always)
    private static func decimalDigitCount(_ number: UInt32) -> Int {
        var digits = 1
        var rest = number
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        return digits
    }

    /// Writes `number`'s `digits` decimal digits at `start`, most significant first.
    @inline(__always)
    private static func writeDecimal(_ number: UInt32, digits: Int, to start: UnsafeMutablePointer<UInt8>) {
        var rest = number
        for offset in stride(from: digits - 1, through: 0, by: -1) {
            start[offset] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }

    /// Appends `</`, the first `count` bytes of `name` (a packed element name, first byte lowest, at most eight) and
    /// `>`, with one reservation: a page writes one for each element it renders.
    mutating func appendEndTag(packedName name: UInt64, count: Int) {
        // The name's word stored whole, past its `count` bytes into reserved room the next append writes over,
        // rather than byte by byte (receipt: Benchmarks/History/68). So the room is the longest name's.
        let start = reserve(11)
        start[0] = UInt8(ascii: "<")
        start[1] = UInt8(ascii: "/")
        UnsafeMutableRawPointer(start + 2).storeBytes(of: name.littleEndian, as: UInt64.self)
        start[count + 2] = UInt8(ascii: ">")
        storage.count += count + 3
    }

    /// Appends `<` and the first `count` bytes of `name` (a packed element name, first byte lowest, at most eight),
    /// with one reservation: what a start tag opens with.
    mutating func appendStartTagOpening(packedName name: UInt64, count: Int) {
        // The name's word stored whole, as ``appendEndTag(packedName:count:)`` stores it.
        let start = reserve(9)
        start[0] = UInt8(ascii: "<")
        UnsafeMutableRawPointer(start + 1).storeBytes(of: name.littleEndian, as: UInt64.self)
        storage.count += count + 1
    }

    /// Appends `<`, the first `count` bytes of `name` (a packed element name, first byte lowest, at most eight),
    /// ` id="v…"` with the generated DOM id `number`, and `rest` (a compiled start tag's bytes after its id), with one
    /// reservation for the whole tag: what a template's unchanged start tag writes (receipt: step 3 of
    /// Benchmarks/History/71-page-instructions-12.md). Invariant: the room reserved covers the name's whole word, the
    /// id and `rest`; the count grows by the tag's bytes only.
    mutating func appendStartTag(packedName name: UInt64, count: Int, generatedID number: UInt32, rest: [UInt8]) {
        rest.withUnsafeBufferPointer { rest in
            let digits = Self.decimalDigitCount(number)
            // The name's word stored whole, as ``appendEndTag(packedName:count:)`` stores it: the id's seven bytes
            // and more follow the name, so the tag's room covers the word's eight.
            let start = reserve(count + digits + 8 + rest.count)
            start[0] = UInt8(ascii: "<")
            UnsafeMutableRawPointer(start + 1).storeBytes(of: name.littleEndian, as: UInt64.self)
            let id = start + count + 1
            Self.writeGeneratedIDAttribute(number, digits: digits, to: id)
            if let bytes = rest.baseAddress { (id + digits + 7).update(from: bytes, count: rest.count) }
            storage.count += count + digits + 8 + rest.count
        }
    }

    /// Appends ` id="v…"`, the generated DOM id `v` and `number` in decimal, with one reservation for the whole
    /// attribute: a page writes one for each view a patch may name (Benchmarks/History/40).
    mutating func appendGeneratedIDAttribute(_ number: UInt32) {
        let digits = Self.decimalDigitCount(number)
        // ` id="v`, the digits, `"`.
        let start = reserve(digits + 7)
        Self.writeGeneratedIDAttribute(number, digits: digits, to: start)
        storage.count += digits + 7
    }

    /// Writes ` id="v`, `number` in its `digits` decimal digits and `"` (`digits + 7` bytes) at `start`, room the
    /// caller reserved.
    @inline(__always)
    private static func writeGeneratedIDAttribute(
        _ number: UInt32, digits: Int, to start: UnsafeMutablePointer<UInt8>
    ) {
        start[0] = 0x20
        start[1] = UInt8(ascii: "i")
        start[2] = UInt8(ascii: "d")
        start[3] = 0x3D
        start[4] = 0x22
        start[5] = UInt8(ascii: "v")
        writeDecimal(number, digits: digits, to: start + 6)
        start[digits + 6] = 0x22
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
    /// `@unchecked Sendable`: the storage is only written through a buffer that holds the sole reference (`reserve`
    /// copies otherwise), inside a `mutating` method, so Swift's static exclusivity of the buffer value covers every
    /// access.
    private final class Storage: @unchecked Sendable {
        let base: UnsafeMutablePointer<UInt8>
        var count = 0
        let capacity: Int

        init(capacity: Int) {
            base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            self.capacity = capacity
        }

        deinit { base.deallocate() }

        /// The thread-local slot of a thread's spare storage (retained while it is there; released when the thread
        /// ends).
        private static let spareSlot = ThreadSlot("HTMLBuffer") { spare in
            guard let spare else { return }
            Unmanaged<Storage>.fromOpaque(spare).release()
        }

        /// This thread's spare storage, now the caller's, or nil.
        static func takeSpare() -> Storage? {
            guard let spare = spareSlot.pointer else { return nil }
            spareSlot.set(nil)
            return Unmanaged<Storage>.fromOpaque(spare).takeRetainedValue()
        }

        /// Keeps `storage` as this thread's spare (releasing one already there, which a nested render may leave).
        static func keepSpare(_ storage: Storage) {
            if let earlier = spareSlot.pointer { Unmanaged<Storage>.fromOpaque(earlier).release() }
            spareSlot.set(Unmanaged.passRetained(storage).toOpaque())
        }

        /// A copy with room for at least `minimumCapacity` bytes, growing by doubling.
        func copy(minimumCapacity: Int) -> Storage {
            let copy = Storage(capacity: Swift.max(minimumCapacity, capacity * 2))
            copy.base.initialize(from: base, count: count)
            copy.count = count
            return copy
        }
    }

    private mutating func appendEscaped(_ string: String) {
        string.withUTF8Bytes { appendEscaped(bytes: $0) }
    }

    private mutating func appendEscaped(bytes source: UnsafeBufferPointer<UInt8>) {
        guard let input = source.baseAddress else { return }
        let end = source.count
        var index = 0
        // A block of input at a time, with room reserved for its worst case (every byte becoming `&quot;`, a
        // replaced sequence running up to three bytes past the block), so the loop writes without checking.
        while index < end {
            let blockEnd = Swift.min(end, index + Self.escapeBlock)
            var out = reserve((blockEnd - index + 3) * 6)
            let written = out
            index = Self.escape(source, input, from: index, upTo: blockEnd, into: &out)
            storage.count += out - written
        }
    }

    /// Input bytes escaped per reservation.
    private static let escapeBlock = 1024

    /// Escapes `source` from `index` until `blockEnd` (or just past it, when a replaced sequence straddles it)
    /// into `out`, which has room for the worst case; returns where it stopped.
    @inline(__always)
    private static func escape(
        _ source: UnsafeBufferPointer<UInt8>, _ input: UnsafePointer<UInt8>, from start: Int, upTo blockEnd: Int,
        into out: inout UnsafeMutablePointer<UInt8>
    ) -> Int {
        var index = start
        var chunkStart = start
        let mask = escapedBytes
        let raw = UnsafeRawPointer(input)
        while index < blockEnd {
            // Eight bytes at a time while none of them needs a look (plain ASCII text, most of a page).
            if blockEnd - index >= 8, !needsLook(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                index += 8
                continue
            }
            let byte = input[index]
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
                replacedLength = forbiddenSequenceLength(source, at: index)
                if replacedLength == 0 {
                    index += 1
                    continue
                }
            }
            copy(input + chunkStart, count: index - chunkStart, to: &out)
            if replacedLength > 0 {
                write("\u{FFFD}", to: &out)
                index += replacedLength
                chunkStart = index
                continue
            }
            switch byte {
            case 0x26: write("&amp;", to: &out)
            case 0x3C: write("&lt;", to: &out)
            case 0x3E: write("&gt;", to: &out)
            case 0x22: write("&quot;", to: &out)
            case 0x27: write("&#39;", to: &out)
            case 0x00: write("\u{FFFD}", to: &out)
            default: writeNumericReference(byte, to: &out)
            }
            index += 1
            chunkStart = index
        }
        copy(input + chunkStart, count: Swift.max(0, index - chunkStart), to: &out)
        return index
    }

    @inline(__always)
    private static func copy(_ bytes: UnsafePointer<UInt8>, count: Int, to out: inout UnsafeMutablePointer<UInt8>) {
        guard count > 0 else { return }
        out.update(from: bytes, count: count)
        out += count
    }

    @inline(__always)
    private static func write(_ text: StaticString, to out: inout UnsafeMutablePointer<UInt8>) {
        copy(text.utf8Start, count: text.utf8CodeUnitCount, to: &out)
    }

    /// `&#N;` for a control character (below 0x20).
    private static func writeNumericReference(_ byte: UInt8, to out: inout UnsafeMutablePointer<UInt8>) {
        out[0] = 0x26  // &
        out[1] = 0x23  // #
        var length = 2
        if byte >= 10 {
            out[length] = 0x30 + byte / 10
            length += 1
        }
        out[length] = 0x30 + byte % 10
        out[length + 1] = 0x3B  // ;
        out += length + 2
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

    /// Whether any of the eight bytes in `word` may need escaping or replacing: a control character, one of
    /// `"&'<>`, DEL or a byte of a non-ASCII character. It may say yes for a byte that needs nothing (the byte loop
    /// then decides), never no for one that does. SWAR: `(x - 0x01…) & ~x & 0x80…` is non-zero when a byte of `x`
    /// is zero; each byte tested for is XORed to zero first.
    @inline(__always)
    private static func needsLook(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasZero(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
        let below0x20 = (word &- ones &* 0x20) & ~word & highs
        let special =
            hasZero(word ^ (ones &* 0x22)) | hasZero(word ^ (ones &* 0x26)) | hasZero(word ^ (ones &* 0x27))
            | hasZero(word ^ (ones &* 0x3C)) | hasZero(word ^ (ones &* 0x3E)) | hasZero(word ^ (ones &* 0x7F))
        return (below0x20 | special | (word & highs)) != 0
    }

    /// Bit `n` is set when ASCII byte `n` (below 0x40) must be escaped: the controls other than tab and line feed,
    /// `"`, `&`, `'`, `<` and `>`. A literal, so reading it costs no lazy-initialisation check per string.
    private static var escapedBytes: UInt64 { 0x5000_00C4_FFFF_F9FF }
}
