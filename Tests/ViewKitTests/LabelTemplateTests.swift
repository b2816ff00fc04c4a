import Testing

@testable import ViewKit

/// A label made from a template element holds the element's text; one made from an element without text starts
/// empty with nothing set on it, and behaves as any label from then on.
@Suite struct LabelTemplateTests {
    private static let markup = """
        <main><h1 data-outlet="title"></h1><p data-outlet="note">Nothing like it yet.</p></main>
        """

    @Test func labelsHoldTheirElementsTextOrStartEmpty() throws {
        let library = try TemplateLibrary(
            directory: try Fixtures.temporaryTemplates(["Screen.html": Self.markup]), registry: ViewRegistry())
        let view = try library.template(named: "Screen").instantiate()
        let title: Label = view.outlet("title")
        let note: Label = view.outlet("note")
        #expect(title.text == "")
        #expect(note.text == "Nothing like it yet.")
        #expect(
            String(decoding: view.renderHTML(context: RenderContext()), as: UTF8.self)
                == #"<main id="v1"><h1 id="v2" data-outlet="title"></h1>"#
                + #"<p id="v3" data-outlet="note">Nothing like it yet.</p></main>"#)
        view.clearMarks()
        title.text = "Heat"
        #expect(title.needsRender)
        #expect(String(decoding: title.renderHTML(context: RenderContext()), as: UTF8.self).contains(">Heat</h1>"))
        note.text = "Nothing like it yet."
        #expect(!note.needsRender)
    }

    /// A template's label is made from its element's compiled name: the same name, element and bytes as a label made
    /// in code with that name, for the elements a label is inferred from (names of more than eight bytes included).
    @Test func templateLabelsHaveTheNameALabelMadeInCodeHas() throws {
        // `caption`, `td` and `th` stand only in a table (the parser drops them from a `<main>`).
        for tag in Label.textTags.subtracting(["caption", "td", "th"]).sorted() {
            let markup = "<main><\(tag) data-outlet=\"text\"></\(tag)></main>"
            let library = try TemplateLibrary(
                directory: try Fixtures.temporaryTemplates(["Screen.html": markup]), registry: ViewRegistry())
            let view = try library.template(named: "Screen").instantiate()
            let label: Label = view.outlet("text")
            let made = Label(tagName: tag)
            #expect(label.tagName == tag)
            #expect(label.packedTag == made.packedTag, "\(tag)")
            #expect(!label.isVoidElement)
            made.setAttribute("data-outlet", "text")
            label.text = "Heat"
            made.text = "Heat"
            #expect(
                label.renderHTML(context: RenderContext()) == made.renderHTML(context: RenderContext()), "\(tag)")
        }
    }
}
