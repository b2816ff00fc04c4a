import Testing

@testable import ViewKit

@Suite struct GeneratedIDAttributeTests {
    /// The attribute written in one piece is the one `appendAttribute("id", domID)` writes, for every length of
    /// number, after other bytes and across the buffer's growth.
    @Test func theGeneratedIDAttributeIsTheIDAttributeOfTheDOMID() {
        let numbers: [UInt32] = [1, 9, 10, 11, 99, 100, 999, 1_000, 65_535, 99_999_999, 1_000_000_000, .max]
        for number in numbers {
            var written = HTMLBuffer(capacity: 16)
            var expected = HTMLBuffer(capacity: 16)
            written.appendRaw("<li")
            expected.appendRaw("<li")
            written.appendGeneratedIDAttribute(number)
            expected.appendAttribute("id", View.generatedID(number))
            #expect(written.bytes == expected.bytes, "\(number)")
            #expect(String(decoding: written.bytes, as: UTF8.self) == "<li id=\"v\(number)\"", "\(number)")
        }
    }

    /// A view knows its generated id by the string's bytes, compared digit by digit from the last, for every length
    /// of number: its own id, in any string storage, and nothing else (another number of the same length, one digit
    /// more or fewer, a leading zero, another first byte, bytes that are not ASCII).
    @Test func aViewRecognisesItsGeneratedIDForEveryLengthOfNumber() {
        let numbers: [UInt32] = [1, 9, 10, 11, 99, 100, 999, 1_000, 65_535, 99_999_999, 1_000_000_000, .max]
        for number in numbers {
            let view = View()
            view.storedID = number
            let id = "v\(number)"
            #expect(view.hasDOMID(id) && view.hasDOMID(String(decoding: Array(id.utf8), as: UTF8.self)))
            // Made in a buffer larger than a small string holds: the same bytes, kept in storage of their own.
            let stored = String(unsafeUninitializedCapacity: 64) { buffer in
                _ = buffer.initialize(from: id.utf8)
                return id.utf8.count
            }
            #expect(view.hasDOMID(stored))
            var others = ["v\(UInt64(number) + 1)", "v\(number / 10)", "v0\(number)", "w\(number)", "V\(number)"]
            others += [
                "v\(number)0", "\(number)", "v\(number) ", "vé\(number)", "v\(number)é", "v\(number)".uppercased(),
            ]
            if number >= 10 { others.append("v\(number % 10)\(number / 10)") }
            for other in others where other != id {
                #expect(!view.hasDOMID(other), "\(number): \(other)")
            }
        }
    }

    /// A buffer shared with a copy is copied before the attribute goes in: the copy keeps its bytes.
    @Test func aSharedBufferIsCopiedBeforeTheAttributeIsWritten() {
        var buffer = HTMLBuffer(capacity: 64)
        buffer.appendRaw("<p")
        let copy = buffer
        buffer.appendGeneratedIDAttribute(42)
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == "<p id=\"v42\"")
        #expect(String(decoding: copy.bytes, as: UTF8.self) == "<p")
    }

    /// Rendered views carry their generated ids in the order they were first rendered, through the compiled start
    /// tags and the attribute-by-attribute ones alike.
    @Test func renderedViewsCarryTheirGeneratedIDs() {
        let root = View(tagName: "ul")
        for index in 0..<12 {
            let row = Label(text: "row \(index)", tagName: "li")
            if index.isMultiple(of: 2) { row.setAttribute("data-even", "") }
            root.addSubview(row)
        }
        let html = String(decoding: root.renderHTML(context: RenderContext()), as: UTF8.self)
        var expected = "<ul id=\"v1\">"
        for index in 0..<12 {
            expected +=
                "<li id=\"v\(index + 2)\"" + (index.isMultiple(of: 2) ? " data-even" : "") + ">row \(index)</li>"
        }
        expected += "</ul>"
        #expect(html == expected)
    }
}
