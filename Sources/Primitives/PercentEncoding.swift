/// Percent-encoding for URLs (RFC 3986): every UTF-8 byte of a text but the unreserved characters (ASCII letters and
/// digits, `-`, `.`, `_`, `~`) and those a caller keeps is written as `%` and two uppercase hexadecimal digits.
///
/// ```swift
/// PercentEncoding.encode("salt & pepper")                       // "salt%20%26%20pepper"
/// PercentEncoding.encode("a/b?c", keeping: "/?")                // "a/b?c"
/// ```
public enum PercentEncoding {
    /// `text` with every byte but the unreserved characters and the ASCII characters of `kept` percent-encoded.
    public static func encode(_ text: String, keeping kept: String = "") -> String {
        let kept = Array(kept.utf8)
        var encoded: [UInt8] = []
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) || (byte < 0x80 && kept.contains(byte)) {
                encoded.append(byte)
            } else {
                encoded.append(UInt8(ascii: "%"))
                encoded.append(hexDigit(byte >> 4))
                encoded.append(hexDigit(byte & 0xF))
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }
}
