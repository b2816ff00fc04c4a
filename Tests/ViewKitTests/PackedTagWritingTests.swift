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

    /// A packed name's whole start tag, with a generated id and the compiled rest, holds exactly the bytes of its
    /// pieces written one by one, for every name length, id length and place, and a rest empty or not.
    @Test func aPackedNamesWholeStartTagHoldsItsPiecesBytes() {
        for name in ["a", "li", "nav", "span", "table", "header", "section", "textarea"] {
            guard let packed = View.classifyName(name).packed else {
                Issue.record("\(name) is not packed")
                continue
            }
            let count = name.utf8.count
            for number: UInt32 in [1, 9, 10, 4_294_967_295] {
                for rest in ["", ">", " class=\"card\" hidden>"] {
                    for filled in [0, 1, 7, 20] {
                        let prefix = String(repeating: "x", count: filled)
                        var html = HTMLBuffer(capacity: 16)
                        html.appendRaw(prefix)
                        html.appendStartTag(
                            packedName: packed, count: count, generatedID: number, rest: Array(rest.utf8))
                        var pieces = HTMLBuffer(capacity: 16)
                        pieces.appendRaw(prefix)
                        pieces.appendStartTagOpening(packedName: packed, count: count)
                        pieces.appendGeneratedIDAttribute(number)
                        pieces.appendRaw(rest)
                        #expect(html.bytes == pieces.bytes, "\(name) v\(number) \(rest) after \(filled)")
                        #expect(html.count == filled + count + 1 + " id=\"v\(number)\"".utf8.count + rest.utf8.count)
                    }
                }
            }
        }
    }
}
