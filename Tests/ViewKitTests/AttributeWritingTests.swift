import Testing

@testable import ViewKit

/// An attribute written with one reservation holds exactly the bytes of its pieces written one by one: the name, `="`,
/// the value escaped and `"` (or the name alone for an empty value), after any bytes already written, in a buffer that
/// grows for it, for values up to, at and past the escaper's block and ending in a replaced sequence.
@Suite struct AttributeWritingTests {
    /// The attribute's bytes as its pieces write them.
    private static func expected(after prefix: String, _ name: String, _ value: String) -> [UInt8] {
        var html = HTMLBuffer(capacity: 16)
        html.appendRaw(prefix)
        html.appendRaw(" " + name)
        if !value.isEmpty {
            html.appendRaw("=\"")
            html.appendAttributeValue(value)
            html.appendRaw("\"")
        }
        return html.bytes
    }

    /// A noncharacter, which the escaper replaces (no literal can spell one).
    private static func scalar(_ value: UInt32) -> String { String(Character(Unicode.Scalar(value)!)) }

    static let values: [String] = [
        "", "a", "x&y", "<b>\"'", "\u{0}\u{7F}", "tail" + scalar(0xFFFF), "c\u{9F}", scalar(0x10FFFF),
        String(repeating: "ab<", count: 341), String(repeating: "a", count: 1024), String(repeating: "&", count: 1025),
        String(repeating: "z", count: 1022) + scalar(0xFDD0), String(repeating: "q", count: 3000),
    ]

    @Test(arguments: values)
    func anAttributeHoldsItsPiecesBytes(value: String) {
        for prefixLength in [0, 1, 7, 15, 40] {
            let prefix = String(repeating: "p", count: prefixLength)
            for name in ["x", "data-name", "aria-describedby"] {
                var html = HTMLBuffer(capacity: 16)
                html.appendRaw(prefix)
                html.appendAttribute(name, value)
                #expect(html.bytes == Self.expected(after: prefix, name, value), "\(name) after \(prefixLength)")
                #expect(html.count == html.bytes.count)
            }
            var fixed = HTMLBuffer(capacity: 16)
            fixed.appendRaw(prefix)
            fixed.appendAttribute(static: "title", value)
            #expect(fixed.bytes == Self.expected(after: prefix, "title", value), "title after \(prefixLength)")
        }
    }

    /// A copy of a buffer keeps its bytes when the other writes an attribute.
    @Test func aCopyKeepsItsBytes() {
        var html = HTMLBuffer(capacity: 64)
        html.appendRaw("<p")
        let copy = html
        html.appendAttribute("class", "a&b")
        #expect(copy.bytes == Array("<p".utf8))
        #expect(html.bytes == Array("<p class=\"a&amp;b\"".utf8))
    }
}
