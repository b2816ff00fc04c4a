import Testing

@testable import ViewKit

@Suite struct ViewTreeTests {
    /// A view that goes away lets go of its subviews' links to it: one of them kept elsewhere has no superview and is
    /// its own root, and joins another view as any free view does. One alone and one of several, in either place.
    @Test func subviewsThatOutliveTheirSuperviewHaveNone() {
        var kept: [View] = []
        do {
            let single = View()
            let alone = Label(text: "alone")
            single.addSubview(alone)
            let several = View(tagName: "ul")
            let items = (0..<3).map { _ in View(tagName: "li") }
            for item in items { several.addSubview(item) }
            #expect(alone.superview === single && items[2].superview === several)
            kept = [alone, items[0], items[2]]
        }
        let other = View()
        for view in kept {
            #expect(view.superview == nil)
            #expect(view.rootView === view)
            other.addSubview(view)
            #expect(view.superview === other && view.isDescendant(of: other))
        }
        #expect(other.subviews.count == 3)
    }

    @Test func addingAViewMovesItFromItsPreviousSuperview() {
        let first = View()
        let second = View()
        let child = Label(text: "x")
        first.addSubview(child)
        second.addSubview(child)
        #expect(first.subviews.isEmpty)
        #expect(child.superview === second)
        #expect(child.rootView === second)
    }

    @Test func isDescendantFollowsTheSuperviews() {
        let root = View()
        let middle = View()
        let leaf = Label(text: "x")
        root.addSubview(middle)
        middle.addSubview(leaf)
        #expect(leaf.isDescendant(of: leaf))
        #expect(leaf.isDescendant(of: middle))
        #expect(leaf.isDescendant(of: root))
        #expect(!root.isDescendant(of: leaf))
        #expect(!leaf.isDescendant(of: View()))
        middle.removeFromSuperview()
        #expect(!leaf.isDescendant(of: root))
        #expect(leaf.isDescendant(of: middle))
    }

    /// The parent here holds its one subview without an array (``SubviewList``), and lets it go all the same.
    @Test func aSubviewThatOutlivesItsSuperviewHasNone() {
        let child = Label(text: "x")
        do {
            let parent = View()
            parent.addSubview(child)
            #expect(child.superview === parent)
        }
        #expect(child.superview == nil)
    }

    @Test func aSubtreeJoiningATreeWithOtherIDsGetsFreshUniqueOnes() {
        let page = View()
        page.addSubview(View())
        page.addSubview(View())
        _ = page.renderHTML(context: RenderContext())  // v1…v3
        let card = View()
        card.addSubview(Label(text: "a"))
        _ = card.renderHTML(context: RenderContext())  // v1, v2 in the card's own tree
        page.addSubview(card)
        _ = page.renderHTML(context: RenderContext())
        var ids: [String] = []
        var stack = [page]
        while let view = stack.popLast() {
            ids.append(view.domID)
            stack.append(contentsOf: view.subviews)
        }
        #expect(Set(ids).count == ids.count)
        #expect(ids.count == 5)
    }

    /// Every view of a tree numbers its id from its root's one sequence, whichever asks first and however deep:
    /// an id asked for, then ids rendered, then a view added later; the root holds the sequence, no view below it.
    @Test func theViewsOfATreeNumberTheirIDsFromTheRootsOneSequence() {
        let page = View()
        var deepest = page
        for _ in 0..<6 {
            let next = View()
            deepest.addSubview(next)
            deepest = next
        }
        #expect(deepest.domID == "v1")
        let html = String(decoding: page.renderHTML(context: RenderContext()), as: UTF8.self)
        #expect(
            html == #"<div id="v2"><div id="v3"><div id="v4"><div id="v5"><div id="v6"><div id="v7"><div id="v1">"#
                + "</div></div></div></div></div></div></div>")
        let late = Label(text: "late")
        deepest.superview?.addSubview(late)
        #expect(late.domID == "v8")
        #expect(page.holdsRareState && !deepest.holdsRareState && !late.holdsRareState)
    }

    @Test func aTreeWithoutIDsTakesOverTheIDsOfASubtreeThatHasThem() {
        let card = View()
        let label = Label(text: "a")
        card.addSubview(label)
        let ids = (card.domID, label.domID)
        let page = View()
        page.addSubview(card)
        #expect((card.domID, label.domID) == ids)
        #expect(page.domID == "v3")
        // The allocator went to the new root; the card keeps nothing rare of its own.
        #expect(!card.holdsRareState)
        #expect(page.holdsRareState)
    }

    @Test func outletLookupDoesNotEnterCustomViewsFromTemplates() throws {
        let root = try Fixtures.library().template(named: "MovieDetail").instantiate()
        let header: MovieHeaderView = root.outlet("headerView")
        #expect(header.outletIfPresent("titleLabel") != nil)
        #expect(root.outletIfPresent("titleLabel") == nil)
    }

    /// One walk gathers what a look-up of each name finds: each name's first view in document order, a view's own
    /// outlets beside those below it, nothing inside a custom view's nib, names held already left out.
    @Test func gatheringOutletsFindsWhatALookUpOfEachNameFinds() throws {
        let root = try Fixtures.library().template(named: "MovieDetail").instantiate()
        let extra = View(tagName: "section")
        extra.setAttribute("data-outlet", "extra")
        let twice = outletLabel("second", named: "headerView")
        let inner = outletLabel("inner", named: "inner")
        extra.addSubview(inner)
        extra.addSubview(twice)
        root.addSubview(extra)
        var gathered: [View] = []
        root.gatherOutlets(into: &gathered)
        let names = gathered.map { $0.attribute("data-outlet") ?? "" }
        #expect(Set(names).count == names.count)
        #expect(names.contains("extra") && names.contains("inner") && !names.contains("titleLabel"))
        for (name, view) in zip(names, gathered) { #expect(root.outletIfPresent(name) === view, "\(name)") }
        #expect(gathered.contains { $0 === root.outletIfPresent("headerView") } && !gathered.contains { $0 === twice })
        var held = [gathered[0]]
        root.gatherOutlets(into: &held)
        #expect(held.count == gathered.count && zip(held, gathered).allSatisfy { $0 === $1 })
    }

    /// A look-up goes down a lone subview (held without an array) as down several, and finds a name's first view in
    /// document order: a view's own outlet before those below it, an earlier subtree's before a later sibling's.
    @Test func outletsAreFoundThroughOneSubviewOrManyInDocumentOrder() {
        let root = View(tagName: "main")
        let lone = View(tagName: "section")
        let deep = outletLabel("deep", named: "name")
        lone.addSubview(deep)
        root.addSubview(lone)
        #expect(root.outletIfPresent("name") === deep)
        #expect(root.outletIfPresent("missing") == nil)

        let later = outletLabel("later", named: "name")
        let own = outletLabel("own", named: "other")
        root.addSubview(later)
        root.addSubview(own)
        #expect(root.outletIfPresent("name") === deep)
        #expect(root.outletIfPresent("other") === own)
        lone.setAttribute("data-outlet", "name")
        #expect(root.outletIfPresent("name") === lone)
        var gathered: [View] = []
        root.gatherOutlets(into: &gathered)
        #expect(gathered.count == 2 && gathered[0] === lone && gathered[1] === own)
    }

    @Test func stackAndListViewsComeFromTemplatesConfigured() throws {
        let root = try Fixtures.library().template(named: "MovieDetail").instantiate()
        let stack = try #require(root.subviews.last as? StackView)
        #expect(stack.axis == .horizontal)
        #expect(stack.spacing == 8)
        let share = try #require(stack.subviews.last as? Button)
        #expect(!share.isEnabled)
        #expect(share.actionName == "share")
    }
}

/// A label showing `text` that is the outlet `name`.
private func outletLabel(_ text: String, named name: String) -> Label {
    let label = Label(text: text)
    label.setAttribute("data-outlet", name)
    return label
}
