import Foundation
import Primitives
import Testing

/// Primitives' percent-encoding and white-space trimming do what Foundation's did where the framework used it, so
/// the framework needs no more than FoundationEssentials.
@Suite struct TextPrimitivesTests {
    static let samples = [
        "", "salt", "Salt & Pepper", "a=b&c=d", "50% off + tax", "#hash", "naïve café", "東京", "😀 smile", "~-._",
        "!$'()*,/:;?@", "tab\there", "line\nbreak", "\u{00A0}nbsp\u{00A0}", "\u{2003}em space\u{2003}", "  ",
        "\t \n", "x\u{0085}", "\u{2028}a\u{2029}", "+", "%", "\"quoted\"", "<tag>", "\\back",
    ]

    @Test func encodingKeepsTheUnreservedCharactersAndEncodesEveryOtherByteAsFoundationDid() {
        var unreserved = CharacterSet()
        unreserved.insert(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        for text in Self.samples {
            #expect(PercentEncoding.encode(text) == text.addingPercentEncoding(withAllowedCharacters: unreserved))
        }
        #expect(PercentEncoding.encode("Salt & Pepper") == "Salt%20%26%20Pepper")
        #expect(PercentEncoding.encode("é") == "%C3%A9")
    }

    @Test func encodingKeepsTheCharactersAskedForAsAQueryDidWithoutItsSeparators() {
        var query = CharacterSet.urlQueryAllowed
        query.remove(charactersIn: "&=+#")
        for text in Self.samples {
            #expect(
                PercentEncoding.encode(text, keeping: "!$'()*,/:;?@")
                    == text.addingPercentEncoding(withAllowedCharacters: query), "\(text)")
        }
        // Only ASCII can be kept: a kept string's other bytes are still encoded.
        #expect(PercentEncoding.encode("é", keeping: "é") == "%C3%A9")
    }

    @Test func trimmingRemovesWhiteSpaceAtTheEndsAsFoundationDid() {
        for text in Self.samples {
            #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
            #expect(
                text.trimmingWhitespace(includingNewlines: true)
                    == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(text.debugDescription)")
            #expect(
                text[...].trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces),
                "a substring: \(text.debugDescription)")
        }
        #expect("  Heat \n".trimmingWhitespace() == "Heat \n")
        #expect("  Heat \n".trimmingWhitespace(includingNewlines: true) == "Heat")
        #expect(" \t ".trimmingWhitespace().isEmpty)
    }
}
