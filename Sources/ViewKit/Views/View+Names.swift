import Primitives
internal import Reactive

// MARK: - Names

extension View {
    // Every view's initializer asks both questions below, so they read the name's bytes once,
    // without hashing (a `Set<String>` look-up hashed the name) or the generic `UTF8View` walk.

    /// Whether `name` is an HTML5 void element (or `#text`).
    static func isVoidElementName(_ name: String) -> Bool {
        classifyName(name).isVoidElement
    }

    /// Whether `name` is a valid element or attribute name.
    static func isValidName(_ name: String) -> Bool {
        classifyName(name).isValid
    }

    /// Checks `name` (letters, digits, `-`, `_`, `:`, `.`; not starting with `-` or `.`) and
    /// tells whether it names a void element (or is `#text`), in one pass over its bytes.
    /// `packed` holds the bytes of a valid name of at most eight bytes, first byte lowest (see `packedTag`).
    static func classifyName(_ name: String) -> (isValid: Bool, isVoidElement: Bool, packed: UInt64?) {
        return name.withUTF8Bytes { bytes in
            guard let first = bytes.first else { return (false, false, nil) }
            var isValid = first != UInt8(ascii: "-") && first != UInt8(ascii: ".")
            var packed: UInt64 = 0
            var littleEndian: UInt64 = 0
            for (index, byte) in bytes.enumerated() {
                packed = packed &<< 8 | UInt64(byte)
                if index < 8 { littleEndian |= UInt64(byte) &<< UInt64(8 * index) }
                // One bit per allowed byte in a 128-bit mask.
                let word = byte < 0x40 ? Self.nameBytesLow : Self.nameBytesHigh
                if byte >= 0x80 || (word >> UInt64(byte & 0x3F)) & 1 == 0 { isValid = false }
            }
            let stored = bytes.count <= 8 ? littleEndian : nil
            guard bytes.count >= 2 && bytes.count <= 6 else { return (isValid, false, stored) }
            return (isValid, Self.isVoidElementPacked(packed), stored)
        }
    }

    /// `#text` and `html` as `packedTag` holds them.
    static var textNodeTag: UInt64 { 0x7478_6574_23 | voidElementBit }
    static var htmlTag: UInt64 { 0x6C6D_7468 }

    /// Whether `packed` (a name's bytes, big-endian) is a void element's name or `#text`. Literals, not tables:
    /// every view made checks its name, and a table read goes through a lazy-initialisation check each time.
    static func isVoidElementPacked(_ packed: UInt64) -> Bool {
        switch packed {
        case 0x23_7465_7874,  // #text
            0x6172_6561,  // area
            0x6261_7365,  // base
            0x6272,  // br
            0x63_6F6C,  // col
            0x65_6D62_6564,  // embed
            0x6872,  // hr
            0x69_6D67,  // img
            0x69_6E70_7574,  // input
            0x6C69_6E6B,  // link
            0x6D65_7461,  // meta
            0x736F_7572_6365,  // source
            0x74_7261_636B,  // track
            0x77_6272:  // wbr
            true
        default:
            false
        }
    }

    /// Bit `n` is set when ASCII byte `n` (below 0x40) may appear in a name: digits, `-`, `.`, `:`.
    static var nameBytesLow: UInt64 { 0x07FF_6000_0000_0000 }

    /// Bit `n` is set when ASCII byte `0x40 + n` may appear in a name: letters and `_`.
    static var nameBytesHigh: UInt64 { 0x07FF_FFFE_87FF_FFFE }
}

/// Element names longer than eight bytes (custom elements, mostly), numbered as they are first seen: a view keeps the
/// number. An app has few, and they are never forgotten.
enum LongTagNames {
    private static let table = Locked<(names: [String], numbers: [String: Int])>(([], [:]))

    static func number(for name: String) -> Int {
        table.withLock { table in
            if let number = table.numbers[name] { return number }
            table.names.append(name)
            table.numbers[name] = table.names.count - 1
            return table.names.count - 1
        }
    }

    static func name(_ number: Int) -> String {
        table.withLock { $0.names[number] }
    }
}
