import Testing

@testable import ViewKit

/// Statics once, dynamics by position: a template element's start and end tags are compiled when templates load,
/// split around the id, and a view made from the element writes them from those bytes while its state is the
/// template's; a change of that state renders the tag attribute by attribute again.
@Suite struct TemplateStartTagTests {
    /// Template values that need escaping, given as the HTML5 parser reads them from a template file.
    private static let hostileTemplate = """
        <section class="a&amp;b &quot;c&quot;" title="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;" \
        role="x&quot; onclick=&quot;y" aria-label="&lt;&#39;&amp;&#39;&gt;">\
        <p data-outlet="note" title="tab&#9;and&#13;return" hidden>Note</p>\
        <span id="fixed&quot;id" data-outlet="named">Named</span></section>
        """

    private static func views(in view: View) -> [View] {
        [view] + view.liveSubviews.flatMap { views(in: $0) }
    }

    private static func startTag(of view: View, compiled: Bool) -> [UInt8] {
        var html = HTMLBuffer(capacity: 256)
        if compiled {
            view.writeStartTag(into: &html)
        } else {
            view.writeStartTagAttributeByAttribute(into: &html)
        }
        return html.bytes
    }

    private func hostileRoot() throws -> View {
        let directory = try Fixtures.temporaryTemplates(["Screen.html": Self.hostileTemplate])
        return try TemplateLibrary(directory: directory, registry: Fixtures.registry()).template(named: "Screen")
            .instantiate()
    }

    /// Every element of the fixtures' templates (the layout, a movie screen with a nib, an image, a list, buttons)
    /// and of a template whose values need escaping writes its start tag from the compiled bytes, byte for byte the
    /// tag written attribute by attribute; the root, which holds state of its own (its id allocator), and a kind that
    /// renders another element than its template's do not.
    @Test func freshViewsWriteCompiledStartTagsIdenticalToTheAttributeByAttributeOnes() throws {
        let library = try Fixtures.library()
        var roots = try ["layout", "MovieDetail"].map { try library.template(named: $0).instantiate() }
        roots.append(try hostileRoot())
        var compiled = 0
        for root in roots {
            _ = root.renderHTML(context: RenderContext())  // the ids, and the root's own state
            for view in Self.views(in: root) where view.attributeList.startTag != nil {
                // A button with an action renders a `<form>`: another element than its template's, never compiled.
                if view.rare?.isShared ?? true, view.attributeList.startTag?.packedTag == view.packedTag {
                    #expect(view.unchangedTemplateStartTag != nil, "<\(view.tagName)>")
                    compiled += 1
                }
                #expect(Self.startTag(of: view, compiled: true) == Self.startTag(of: view, compiled: false))
            }
        }
        #expect(compiled >= 10)
    }

    /// The compiled bytes of the hostile template parse back to the template's values: the class, the title, the
    /// role and the label escaped once, `hidden` kept, and the explicit id, the slot, escaped too.
    @Test func compiledTagsEscapeTheTemplatesValues() throws {
        let root = try hostileRoot()
        let parsed = try #require(EscapingPropertyTests.parseFragment(root.renderHTML(context: RenderContext())).first)
        #expect(parsed.attributes["class"] == #"a&b "c""#)
        #expect(parsed.attributes["title"] == #""><script>alert(1)</script>"#)
        #expect(parsed.attributes["role"] == #"x" onclick="y"#)
        #expect(parsed.attributes["aria-label"] == "<'&'>")
        #expect(parsed.children.map(\.name) == ["p", "span"])
        #expect(parsed.children.first?.attributes["title"] == "tab\tand\rreturn")
        #expect(parsed.children.first?.attributes["hidden"] == "")
        #expect(parsed.children.last?.attributes["id"] == #"fixed"id"#)
    }

    /// Each change of what the compiled bytes hold (the class, an attribute, `hidden`, the role, the label, the id)
    /// takes the view off them: the page shows the changed value, escaped, and the tag is what the attribute-by-
    /// attribute writer makes. Hostile values from a seeded generator.
    @Test func aChangedViewRendersItsChangeNotItsTemplatesBytes() throws {
        var generator = SeededGenerator(seed: 35)
        let changes: [(String, (View, String) -> Void, (EscapingPropertyTests.ParsedElement) -> String?)] = [
            ("class", { $0.classList.insert("k" + $1) }, { $0.attributes["class"] }),
            ("title", { $0.setAttribute("title", $1) }, { $0.attributes["title"] }),
            ("hidden", { view, _ in view.isHidden.toggle() }, { $0.attributes["hidden"] }),
            ("role", { $0.accessibilityRole = $1 }, { $0.attributes["role"] }),
            ("aria-label", { $0.accessibilityLabel = $1 }, { $0.attributes["aria-label"] }),
            ("id", { $0.setAttribute("id", "i" + $1) }, { $0.attributes["id"] }),
        ]
        for iteration in 0..<200 {
            let (name, change, read) = changes[iteration % changes.count]
            let value = EscapingPropertyTests.hostileString(using: &generator)
            let root = try hostileRoot()
            _ = root.renderHTML(context: RenderContext())
            let note: Label = root.outlet("note")
            #expect(note.unchangedTemplateStartTag != nil)
            let wasHidden = note.isHidden
            change(note, value)
            #expect(note.unchangedTemplateStartTag == nil, "\(name)")
            #expect(Self.startTag(of: note, compiled: true) == Self.startTag(of: note, compiled: false))

            let html = root.renderHTML(context: RenderContext())
            let parsedRoot = try #require(EscapingPropertyTests.parseFragment(html).first)
            let parsed = try #require(parsedRoot.children.first, "\(name), iteration \(iteration)")
            let shown = read(parsed)
            switch name {
            case "class": #expect(shown == EscapingPropertyTests.expectedRoundTrip(note.classList.value))
            case "hidden": #expect((shown != nil) == !wasHidden)
            case "id": #expect(shown == EscapingPropertyTests.expectedRoundTrip("i" + value))
            default: #expect(shown == EscapingPropertyTests.expectedRoundTrip(value), "\(name)")
            }
            // The views around it still write their compiled tags, unchanged.
            #expect(root.outlet("named", as: Label.self).unchangedTemplateStartTag != nil)
            #expect(parsedRoot.attributes["title"] == #""><script>alert(1)</script>"#)
        }
    }
}

/// A plain element's view is made from the name the template compiler checked and packed: short, long (over eight
/// bytes) and void names read back and render as a view made in code with the same name does.
@Suite struct CompiledTagNameTests {
    @Test func plainElementsOfEveryKindOfNameMatchViewsMadeInCode() throws {
        let names = ["div", "section", "p", "blockquote", "my-very-long-custom-element", "hr", "br", "wbr", "x-y"]
        let markup =
            "<main>"
            + names.map { #"<\#($0) id="e-\#($0)" class="c">"# + (["hr", "br", "wbr"].contains($0) ? "" : "</\($0)>") }
            .joined() + "</main>"
        let directory = try Fixtures.temporaryTemplates(["Screen.html": markup])
        let root = try TemplateLibrary(directory: directory, registry: Fixtures.registry()).template(named: "Screen")
            .instantiate()
        #expect(root.liveSubviews.map(\.tagName) == names)
        for (view, name) in zip(root.liveSubviews, names) {
            let made = View(tagName: name)
            made.setAttribute("id", "e-" + name)
            made.classList = ["c"]
            #expect(view.packedTag == made.packedTag, "\(name)")
            #expect(view.isVoidElement == made.isVoidElement, "\(name)")
            #expect(view.html == made.html, "\(name)")
        }
    }
}
