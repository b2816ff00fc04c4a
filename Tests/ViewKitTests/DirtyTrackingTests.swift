import Testing
import ViewKit

@Suite struct DirtyTrackingTests {
    /// A rendered page: main > (header > title label), (section > body label).
    private func page() -> (root: View, title: Label, body: Label, section: View) {
        let root = View(tagName: "main")
        let header = View(tagName: "header")
        let title = Label(text: "Heat", tagName: "h1")
        header.addSubview(title)
        let section = View(tagName: "section")
        let body = Label(text: "A heist film.", tagName: "p")
        section.addSubview(body)
        root.addSubview(header)
        root.addSubview(section)
        _ = root.renderHTML(context: RenderContext())
        return (root, title, body, section)
    }

    private func string(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func renderingClearsTheMarks() {
        let page = page()
        #expect(!page.root.hasChanges)
        #expect(page.root.takeChanges(context: RenderContext()).isEmpty)
    }

    @Test func aPropertyChangeReplacesOnlyThatView() {
        let page = page()
        page.title.text = "Heat (1995)"
        let changes = page.root.takeChanges(context: RenderContext())
        #expect(changes == [.replace(id: page.title.domID, html: Array(#"<h1 id="v3">Heat (1995)</h1>"#.utf8))])
        #expect(!page.root.hasChanges)
        #expect(page.root.takeChanges(context: RenderContext()).isEmpty)
    }

    @Test func textsAreComparedByTheirBytes() {
        // The same bytes in a new string: no change. A canonically equivalent text in other code points ("é"
        // composed, then as "e" and a combining accent): a change, since the page would show other code points.
        let page = page()
        page.title.text = String(decoding: Array("Heat".utf8), as: UTF8.self)
        #expect(!page.root.hasChanges)
        page.title.text = "Caf\u{E9} · Heat"
        _ = page.root.takeChanges(context: RenderContext())
        page.title.text = "Cafe\u{301} · Heat"
        let changes = page.root.takeChanges(context: RenderContext())
        #expect(changes == [.replace(id: page.title.domID, html: Array("<h1 id=\"v3\">Cafe\u{301} · Heat</h1>".utf8))])
        page.title.text = "Cafe\u{301} · Heat"
        #expect(!page.root.hasChanges)
    }

    @Test func ariaPropertiesMarkTheViewOnlyWhenTheyChange() {
        // They live in storage a view allocates on first use: unsetting a property it never had, or
        // setting the value it holds, must not count as a change.
        let page = page()
        page.body.accessibilityRole = nil
        page.body.accessibilityLabel = nil
        #expect(!page.root.hasChanges)
        page.body.accessibilityRole = "note"
        page.body.accessibilityLabel = "Plot"
        #expect(
            page.root.takeChanges(context: RenderContext()) == [
                .replace(
                    id: page.body.domID,
                    html: Array(#"<p id="v5" role="note" aria-label="Plot">A heist film.</p>"#.utf8))
            ])
        page.body.accessibilityRole = "note"
        #expect(!page.root.hasChanges)
        page.body.accessibilityRole = nil
        page.body.accessibilityLabel = nil
        #expect(
            page.root.takeChanges(context: RenderContext()) == [
                .replace(id: page.body.domID, html: Array(#"<p id="v5">A heist film.</p>"#.utf8))
            ])
    }

    @Test func settingTheSameValueMarksNothing() {
        let page = page()
        page.title.text = "Heat"
        page.section.isHidden = false
        page.section.setAttribute("title", nil)
        page.section.classList.remove("absent")
        #expect(!page.title.hasChanges)
        #expect(page.root.takeChanges(context: RenderContext()).isEmpty)
    }

    @Test func reportsTheSmallestDirtySubtreesOnce() {
        let page = page()
        page.body.text = "Changed"
        page.section.isHidden = true  // the section contains the body: one replacement covers both
        page.title.text = "Other"
        let changes = page.root.takeChanges(context: RenderContext())
        #expect(changes.count == 2)
        #expect(changes.contains { if case .replace(page.title.domID, _) = $0 { true } else { false } })
        guard
            let sectionHTML = changes.compactMap({ change -> [UInt8]? in
                if case .replace(page.section.domID, let html) = change { html } else { nil }
            }).first
        else {
            Issue.record("no replacement for the section")
            return
        }
        #expect(string(sectionHTML) == #"<section id="v4" hidden><p id="v5">Changed</p></section>"#)
    }

    @Test func addingASubviewReplacesItsNewParent() {
        let page = page()
        page.section.addSubview(Label(text: "More", tagName: "p"))
        let changes = page.root.takeChanges(context: RenderContext())
        #expect(changes.count == 1)
        #expect(changes.first.map { if case .replace(page.section.domID, _) = $0 { true } else { false } } == true)
    }

    @Test func invalidationHandlerFiresOnceWhenTheTreeTurnsDirty() {
        let page = page()
        var calls = 0
        page.root.invalidationHandler = { calls += 1 }
        page.title.text = "One"
        page.body.text = "Two"
        page.section.isHidden = true
        #expect(calls == 1)
        _ = page.root.takeChanges(context: RenderContext())
        page.body.text = "Three"
        #expect(calls == 2)
    }

    @Test func invalidationHandlerFiresForChangesToTheRootItself() {
        let page = page()
        var calls = 0
        page.root.invalidationHandler = { calls += 1 }
        page.root.classList.insert("dark")
        page.title.text = "x"
        #expect(calls == 1)
        let changes = page.root.takeChanges(context: RenderContext())
        #expect(changes.count == 1)
    }
}
