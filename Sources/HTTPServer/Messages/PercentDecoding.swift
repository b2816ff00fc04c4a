/// Percent-decoding for paths, queries and `application/x-www-form-urlencoded` bodies.
///
/// Follows the WHATWG URL standard's leniency where it is harmless: a `%` not followed by two hex
/// digits stays as it is.
enum PercentDecoding {
    /// How to treat bytes that do not form valid UTF-8 once decoded.
    enum Strictness {
        /// Replace invalid sequences with U+FFFD, as browsers do for URLs.
        case replacingInvalidUTF8
        /// Fail on invalid sequences, for data a handler will store.
        case rejectingInvalidUTF8
    }

    /// Decodes `%XX` escapes (and `+` as a space when `plusAsSpace`) in `bytes`.
    /// Returns `nil` only for invalid UTF-8 under `.rejectingInvalidUTF8`.
    static func decode<Bytes: Collection<UInt8>>(
        _ bytes: Bytes, plusAsSpace: Bool, strictness: Strictness = .replacingInvalidUTF8
    ) -> String? {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                let first = bytes.index(after: index)
                if first != bytes.endIndex, let high = hexValue(bytes[first]) {
                    let second = bytes.index(after: first)
                    if second != bytes.endIndex, let low = hexValue(bytes[second]) {
                        output.append(high << 4 | low)
                        index = bytes.index(after: second)
                        continue
                    }
                }
                output.append(byte)
            } else if plusAsSpace && byte == UInt8(ascii: "+") {
                output.append(UInt8(ascii: " "))
            } else {
                output.append(byte)
            }
            index = bytes.index(after: index)
        }
        switch strictness {
        case .replacingInvalidUTF8:
            return String(decoding: output, as: UTF8.self)
        case .rejectingInvalidUTF8:
            return String(validating: output, as: UTF8.self)
        }
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
