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

    /// A tree's last render (a page rendered without a live screen, dropped right after) writes what a render writes
    /// and leaves its marks: the change is still there to take, and a render then clears it.
    @Test func aLastRenderWritesTheSameBytesAndLeavesTheMarks() {
        let page = page()
        page.title.text = "Heat (1995)"
        let attributes = [("data-screen", "s1"), ("data-last-event", "0")]
        let last = page.root.renderLastHTML(context: RenderContext(), addingToStartTag: attributes)
        #expect(
            string(last)
                == #"<main id="v1" data-screen="s1" data-last-event="0"><header id="v2"><h1 id="v3">Heat (1995)</h1>"#
                + #"</header><section id="v4"><p id="v5">A heist film.</p></section></main>"#)
        #expect(page.root.hasChanges)
        #expect(page.root.renderHTML(context: RenderContext(), addingToStartTag: attributes) == last)
        #expect(!page.root.hasChanges)
        page.body.text = "A heist film, 1995."
        _ = page.root.renderLastHTML(context: RenderContext(), addingToStartTag: attributes)
        #expect(
            page.root.takeChanges(context: RenderContext()) == [
                .replace(id: page.body.domID, html: Array(#"<p id="v5">A heist film, 1995.</p>"#.utf8))
            ])
    }

    @Test func aPropertyChangeReplacesOnlyThatView() {
        let page = page()
        page.title.text = "Heat (1995)"
        let changes = page.root.takeChanges(context: RenderContext())
        #expect(changes == [.replace(id: page.title.domID, html: Array(#"<h1 id="v3">Heat (1995)</h1>"#.utf8))])
        #expect(!page.root.hasChanges)
        #expect(page.root.takeChanges(context: RenderContext()).isEmpty)
    }

    /// A label's text is kept without a run-time exclusivity check (its accessors read and assign it whole): made with
    /// a text, a label is not marked; a change in place marks it and is the new text; the same bytes mark nothing.
    @Test func aLabelsTextAccessorsMarkAsItsObserverDid() {
        let label = Label(text: "Heat", tagName: "h1")
        #expect(!label.hasChanges)
        _ = label.renderHTML(context: RenderContext())
        label.text += " (1995)"
        #expect(label.text == "Heat (1995)" && label.hasChanges)
        _ = label.renderHTML(context: RenderContext())
        label.text = String("Heat (1995)".utf8.map { Character(Unicode.Scalar($0)) })
        #expect(!label.hasChanges)
    }

    /// A button's and an image's rendered properties are kept as a label's text is: made with a title, a button is not
    /// marked; each property marks when set to other bytes, in place too, and not when set to the same bytes. The
    /// action name and the placeholder are compared by their bytes, as the texts are: a canonically equivalent name
    /// in other code points is another name on the page.
    @Test func aButtonsAndAnImagesAccessorsMarkAsALabelsDo() {
        let button = Button(title: "Rate", actionName: "rate")
        #expect(!button.hasChanges && button.title == "Rate" && button.actionName == "rate" && button.isEnabled)
        button.title += " it"
        #expect(button.title == "Rate it" && button.hasChanges)
        _ = button.renderHTML(context: RenderContext())
        button.title = String(decoding: Array("Rate it".utf8), as: UTF8.self)
        button.isEnabled = true
        button.actionName = "rate"
        #expect(!button.hasChanges)
        button.isEnabled = false
        #expect(button.hasChanges)
        _ = button.renderHTML(context: RenderContext())
        button.actionName = "caf\u{E9}"
        _ = button.renderHTML(context: RenderContext())
        button.actionName = "cafe\u{301}"
        #expect(button.hasChanges)

        let image = ImageView()
        _ = image.renderHTML(context: RenderContext())
        image.imageURL = nil
        image.alternativeText = ""
        image.placeholder = nil
        image.loadsEagerly = false
        #expect(!image.hasChanges)
        image.placeholder = "/caf\u{E9}.svg"
        #expect(image.hasChanges)
        _ = image.renderHTML(context: RenderContext())
        image.placeholder = "/cafe\u{301}.svg"
        #expect(image.hasChanges)
        _ = image.renderHTML(context: RenderContext())
        image.alternativeText += "Poster"
        #expect(image.alternativeText == "Poster" && image.hasChanges)
        _ = image.renderHTML(context: RenderContext())
        image.loadsEagerly = true
        #expect(image.hasChanges)
        _ = image.renderHTML(context: RenderContext())
        image.imageURL = "/poster.jpg"
        #expect(image.hasChanges)
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

    /// A change far down is taken down its one changed path: one replacement, every mark on the way cleared, and the
    /// tree dirty again (its handler called) on the next change. Where the path meets a list with rows inserted, the
    /// list's own changes come first, then what changed below it.
    @Test func aChangeFarDownIsTakenDownItsPath() {
        let root = View(tagName: "main")
        var parent = root
        var path: [View] = [root]
        for _ in 0..<6 {
            let child = View(tagName: "section")
            parent.addSubview(View(tagName: "aside"))
            parent.addSubview(child)
            path.append(child)
            parent = child
        }
        let label = Label(text: "7.9", tagName: "span")
        parent.addSubview(label)
        let list = ListView()
        path[3].insertSubview(list, at: 0)
        list.update(with: [1], id: { $0 }, makeRow: { _ in Label(tagName: "li") }) { row, item in
            (row as! Label).text = "\(item)"
        }
        _ = root.renderHTML(context: RenderContext())
        var invalidations = 0
        root.invalidationHandler = { invalidations += 1 }

        label.text = "8.1"
        #expect(path.allSatisfy(\.hasChanges) && invalidations == 1)
        let changes = root.takeChanges(context: RenderContext())
        #expect(changes == [.replace(id: label.domID, html: Array(#"<span id="\#(label.domID)">8.1</span>"#.utf8))])
        #expect(!path.contains { $0.hasChanges } && !label.hasChanges)

        list.update(with: [1, 2], id: { $0 }, makeRow: { _ in Label(tagName: "li") }) { row, item in
            (row as! Label).text = "\(item)"
        }
        label.text = "8.2"
        #expect(invalidations == 2)
        let both = root.takeChanges(context: RenderContext())
        #expect(both.count == 2)
        if case .insert(let parentID, nil, _) = both.first {
            #expect(parentID == list.domID)
        } else {
            Issue.record("the list's insertion first: \(both)")
        }
        #expect(both.last == .replace(id: label.domID, html: Array(#"<span id="\#(label.domID)">8.2</span>"#.utf8)))
        #expect(!path.contains { $0.hasChanges } && !list.hasChanges)
    }

    /// A change is taken down the path to the view that changed however its ancestors' places among their siblings
    /// moved since they were attached: siblings inserted before them, removed before them, or so many that a place
    /// no longer fits a byte. Each is found where it is now, and the next change finds it again.
    @Test func aChangeIsTakenDownItsPathAfterSiblingsMoved() {
        let root = View(tagName: "main")
        let section = View(tagName: "section")
        let article = View(tagName: "article")
        let label = Label(text: "7.9", tagName: "span")
        root.addSubview(View(tagName: "header"))
        root.addSubview(section)
        for _ in 0..<300 { section.addSubview(View(tagName: "aside")) }
        section.addSubview(article)
        article.addSubview(label)
        _ = root.renderHTML(context: RenderContext())
        let replacement = { (text: String) in
            [ViewChange.replace(id: label.domID, html: Array(#"<span id="\#(label.domID)">\#(text)</span>"#.utf8))]
        }

        label.text = "8.0"
        #expect(root.takeChanges(context: RenderContext()) == replacement("8.0"))

        // The section now second to last, the article a place further on, the header gone: each one's place moved.
        root.insertSubview(View(tagName: "nav"), at: 0)
        root.insertSubview(View(tagName: "nav"), at: 0)
        section.insertSubview(View(tagName: "aside"), at: 0)
        root.subviews[2].removeFromSuperview()
        _ = root.takeChanges(context: RenderContext())
        _ = root.renderHTML(context: RenderContext())
        #expect(root.subviews.firstIndex { $0 === section } == 2 && section.subviews.last === article)

        label.text = "8.1"
        #expect(root.takeChanges(context: RenderContext()) == replacement("8.1"))
        label.text = "8.2"
        #expect(root.takeChanges(context: RenderContext()) == replacement("8.2"))
        #expect(!root.hasChanges && !section.hasChanges && !article.hasChanges)
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

    @Test func changesAnywhereAreTakenAsTheOutermostChangedViewsInDocumentOrder() {
        // Taking changes follows the one changed subview of each view when there is one, and looks at every subview
        // otherwise: random texts, hidden sections, subviews added, removed and moved between parents, several at a
        // time, must each come out as the outermost changed views, in document order, and leave nothing marked.
        var generator = SeededGenerator(seed: 7)
        let root = View(tagName: "main")
        var containers = [root]
        var labels: [Label] = []
        for depth in 0..<3 {
            for parent in containers where parent.subviews.count == 0 || depth == 0 {
                for _ in 0..<3 {
                    let child = View(tagName: "section")
                    parent.addSubview(child)
                    containers.append(child)
                }
            }
        }
        for container in containers {
            let label = Label(text: "0", tagName: "p")
            container.addSubview(label)
            labels.append(label)
        }
        _ = root.renderHTML(context: RenderContext())

        for round in 0..<400 {
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                switch Int.random(in: 0..<10, using: &generator) {
                case 0..<6:
                    labels.randomElement(using: &generator)!.text = "\(round)"
                case 6:
                    let section = containers.dropFirst().randomElement(using: &generator)!
                    section.isHidden.toggle()
                case 7:
                    let label = Label(text: "new \(round)", tagName: "p")
                    let parent = containers.randomElement(using: &generator)!
                    parent.insertSubview(label, at: Int.random(in: 0...parent.subviews.count, using: &generator))
                    labels.append(label)
                case 8:
                    if labels.count > containers.count {
                        labels.remove(at: Int.random(in: 0..<labels.count, using: &generator)).removeFromSuperview()
                    }
                default:
                    // A label into another parent (both parents change).
                    let label = labels.randomElement(using: &generator)!
                    let parent = containers.randomElement(using: &generator)!
                    parent.insertSubview(label, at: Int.random(in: 0...parent.subviews.count, using: &generator))
                }
            }
            let expected = Self.outermostChangedViews(in: root).map(\.domID)
            let taken = root.takeChanges(context: RenderContext()).map { change -> String in
                if case .replace(let id, _) = change { id } else { "not a replacement: \(change)" }
            }
            #expect(taken == expected, "round \(round)")
            #expect(!Self.anyMarked(in: root), "round \(round): marks left")
        }
    }

    /// The views marked for rendering with no marked view above them, in document order.
    private static func outermostChangedViews(in view: View) -> [View] {
        view.needsRender ? [view] : view.subviews.flatMap { outermostChangedViews(in: $0) }
    }

    private static func anyMarked(in view: View) -> Bool {
        view.hasChanges || view.subviews.contains { anyMarked(in: $0) }
    }
}
