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

    /// A view that reads another view's id while it renders (as a label names its field).
    private final class NamingView: View {
        var named: View?
        override func renderContent(into html: inout HTMLBuffer, context: RenderContext) {
            if let named { html.appendText(named.domID) }
            renderSubviews(into: &html, context: context)
        }
    }

    /// A view that renders its subviews itself, not through the render walk.
    private final class OwnWalkView: View {
        override func renderContent(into html: inout HTMLBuffer, context: RenderContext) {
            for subview in subviews { subview.render(into: &html, context: context) }
        }
    }

    /// Ids given during a render come from the tree's one allocator whichever way a view gets its id: the render
    /// walk's (its allocator carried in the buffer), a custom render's own walk over its subviews, or an id asked
    /// while rendering. Each view is numbered once, in the order it is first rendered or asked, and no number twice.
    @Test func idsGivenDuringARenderAreTheTreesOneNumbering() {
        let root = View(tagName: "div")
        let naming = NamingView(tagName: "section")
        let own = OwnWalkView(tagName: "ul")
        let first = Label(text: "a", tagName: "li")
        let deep = View(tagName: "div")
        let deepLabel = Label(text: "b", tagName: "p")
        let later = Label(text: "c", tagName: "p")
        root.addSubview(naming)
        naming.addSubview(own)
        own.addSubview(first)
        own.addSubview(deep)
        deep.addSubview(deepLabel)
        root.addSubview(later)
        naming.named = later
        let html = String(decoding: root.renderHTML(context: RenderContext()), as: UTF8.self)
        let expected =
            "<div id=\"v1\"><section id=\"v2\">v3<ul id=\"v4\"><li id=\"v5\">a</li><div id=\"v6\">"
            + "<p id=\"v7\">b</p></div></ul></section><p id=\"v3\">c</p></div>"
        #expect(html == expected)
        // Asked after the render, a new view of the tree continues the same numbering.
        let added = View(tagName: "hr")
        deep.addSubview(added)
        #expect(added.domID == "v8")
    }

    /// A subtree rendered on its own, then in its tree, and a buffer that a render wrote: the render walk leaves no
    /// allocator in the buffer it was given, and a view rendered into it later numbers from its own tree.
    @Test func aRenderLeavesNoAllocatorInItsBuffer() {
        let tree = View(tagName: "div")
        let branch = View(tagName: "section")
        branch.addSubview(Label(text: "x", tagName: "p"))
        tree.addSubview(branch)
        let other = View(tagName: "div")
        other.addSubview(Label(text: "y", tagName: "p"))
        var html = HTMLBuffer(capacity: 64)
        branch.render(into: &html, context: RenderContext())
        #expect(html.idAllocator == nil && html.idScopeView == nil)
        other.render(into: &html, context: RenderContext())
        #expect(html.idAllocator == nil && html.idScopeView == nil)
        #expect(
            String(decoding: html.bytes, as: UTF8.self)
                == "<section id=\"v1\"><p id=\"v2\">x</p></section><div id=\"v1\"><p id=\"v2\">y</p></div>")
        #expect(tree.domID == "v3")
    }
}
