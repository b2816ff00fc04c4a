import Testing

@testable import ViewKit

@Suite struct PackedTagWritingTests {
    /// A packed name's tags hold its bytes and nothing after them, for every name length from one to eight, after
    /// every number of other bytes in a buffer that must grow for them: the name's word is stored whole, past the
    /// name, into room the next bytes write over.
    @Test func aPackedNamesTagsHoldItsBytesOnlyForEveryLengthAndPlace() {
        for name in ["a", "li", "nav", "span", "table", "header", "section", "textarea"] {
            let kind = View.classifyName(name)
            guard let packed = kind.packed else {
                Issue.record("\(name) is not packed")
                continue
            }
            let count = name.utf8.count
            for filled in 0...20 {
                let prefix = String(repeating: "x", count: filled)
                var html = HTMLBuffer(capacity: 16)
                html.appendRaw(prefix)
                html.appendStartTagOpening(packedName: packed, count: count)
                html.append(UInt8(ascii: ">"))
                html.appendEndTag(packedName: packed, count: count)
                #expect(html.count == filled + 2 * count + 5, "\(name) after \(filled)")
                #expect(
                    String(decoding: html.bytes, as: UTF8.self) == "\(prefix)<\(name)></\(name)>",
                    "\(name) after \(filled)")
            }
        }
    }
}
