import Testing
import ViewKit

/// The escaper's exact output for every ASCII byte, alone and inside runs long enough for its eight-bytes-at-a-time
/// scan, at every offset of such a run; and across the 1,024-byte blocks it reserves room for.
@Suite struct EscapingBytesTests {
    /// What one ASCII byte becomes in text or a quoted attribute value.
    static func expected(_ byte: UInt8) -> String {
        switch byte {
        case 0x00: "\u{FFFD}"
        case 0x09, 0x0A: String(UnicodeScalar(byte))
        case 0x01..<0x20: "&#\(byte);"
        case 0x22: "&quot;"
        case 0x26: "&amp;"
        case 0x27: "&#39;"
        case 0x3C: "&lt;"
        case 0x3E: "&gt;"
        case 0x7F: "\u{FFFD}"
        default: String(UnicodeScalar(byte))
        }
    }

    private func escaped(_ text: String) -> String {
        var html = HTMLBuffer()
        html.appendText(text)
        return String(decoding: html.bytes, as: UTF8.self)
    }

    @Test func everyASCIIByteAtEveryOffsetOfARun() {
        for byte in UInt8(0)..<0x80 {
            let character = String(UnicodeScalar(byte))
            #expect(escaped(character) == Self.expected(byte), "byte \(byte)")
            for offset in 0..<17 {
                let before = String(repeating: "a", count: offset)
                let after = String(repeating: "b", count: 16 - offset)
                #expect(
                    escaped(before + character + after) == before + Self.expected(byte) + after,
                    "byte \(byte) at offset \(offset)")
            }
        }
    }

    @Test func nonASCIIPassesOrBecomesAReplacementCharacterInLongRuns() {
        let padding = String(repeating: "x", count: 9)
        #expect(escaped(padding + "é漢字🎬" + padding) == padding + "é漢字🎬" + padding)
        // A C1 control and three noncharacters (Swift literals refuse the latter, so they are built from values).
        let forbidden = String(
            String.UnicodeScalarView([0x85, 0xFDD0, 0xFFFE, 0x1FFFF].compactMap(Unicode.Scalar.init)))
        #expect(escaped(padding + forbidden + padding) == padding + "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}" + padding)
    }

    @Test func longTextsCrossTheReservationBlocks() {
        // A replaced sequence straddles the 1,024-byte boundary; quotes fill whole blocks at their widest.
        let straddling = String(repeating: "a", count: 1023) + String(Unicode.Scalar(0xFFFF)!) + "tail"
        #expect(escaped(straddling) == String(repeating: "a", count: 1023) + "\u{FFFD}tail")
        let quotes = String(repeating: "\"", count: 5000)
        #expect(escaped(quotes) == String(repeating: "&quot;", count: 5000))
        let mixed = String(repeating: "Tom & \"Jerry\" <3\n", count: 300)
        #expect(escaped(mixed) == String(repeating: "Tom &amp; &quot;Jerry&quot; &lt;3\n", count: 300))
    }
}
