import Testing

@testable import ViewKit

/// A template's static markup (no outlet, id, custom view or action anywhere in it) stays shared markup in the views
/// made from the template, until code asks for the subviews.
@Suite struct StaticContentTests {
    private static let markup = """
        <div class="card"><h2>Viewing <em>tips</em></h2> <span data-outlet="count">3</span><p class="note">Static</p>\
        <button data-outlet="more" data-action="more">More</button></div>
        """

    private func instantiate(_ markup: String = Self.markup) throws -> View {
        try Fixtures.screenTemplate(markup).instantiate()
    }

    @Test func staticChildrenAreMarkupNotViewsAndRenderWithoutIDs() throws {
        let root = try instantiate()
        #expect(root.liveSubviews.count == 2)  // the outlet and the button; the heading, space and note are markup
        let expected = [
            #"<div id="v1" class="card"><h2>Viewing <em>tips</em></h2> "#,
            #"<span id="v2" data-outlet="count">3</span><p class="note">Static</p>"#,
            ##"<form id="v3" method="post" action="#more">"##,
            #"<button data-outlet="more" type="submit">More</button></form></div>"#,
        ]
        #expect(root.html == expected.joined())
    }

    @Test func outletsAndChangesWorkBesideStaticMarkup() throws {
        let root = try instantiate()
        _ = root.renderHTML(context: RenderContext())
        let count: Label = root.outlet("count")
        count.text = "4"
        let changes = root.takeChanges(context: RenderContext())
        #expect(changes == [.replace(id: "v2", html: Array(#"<span id="v2" data-outlet="count">4</span>"#.utf8))])
        #expect(root.liveSubviews.count == 2)
    }

    /// Asking for the subviews makes the markup views in their places and changes nothing on the page: reading is
    /// not a change. The page shows those views without ids, so the first change to one renders the element around
    /// them, which gives them their ids; from then on they are ordinary views.
    @Test func askingForTheSubviewsMakesTheMarkupViewsInPlaceWithoutAChange() throws {
        let root = try instantiate()
        _ = root.renderHTML(context: RenderContext())
        let subviews = root.subviews
        #expect(subviews.map(\.tagName) == ["h2", "#text", "span", "p", "form"])
        #expect((subviews[1] as? TextNode)?.text == " ")
        #expect(subviews[0].subviews.map(\.tagName) == ["#text", "em"])
        #expect(subviews.allSatisfy { $0.superview === root })
        #expect(!root.hasChanges)
        #expect(root.takeChanges(context: RenderContext()).isEmpty)

        subviews[3].isHidden = true
        let changes = root.takeChanges(context: RenderContext())
        guard case .replace(let id, let html) = changes.first, changes.count == 1 else {
            Issue.record("expected one replace, got \(changes)")
            return
        }
        #expect(id == "v1")
        let page = String(decoding: html, as: UTF8.self)
        #expect(page.contains(#"<h2 id="v4">Viewing <em id="v5">tips</em></h2>"#))
        #expect(page.contains(#"<p id="v6" class="note" hidden>Static</p>"#))
        // The views are ordinary now: changing one is a patch of its own.
        subviews[3].isHidden = false
        #expect(
            root.takeChanges(context: RenderContext())
                == [.replace(id: "v6", html: Array(#"<p id="v6" class="note">Static</p>"#.utf8))])
        subviews[0].subviews[1].setAttribute("title", "tip")
        #expect(
            root.takeChanges(context: RenderContext())
                == [.replace(id: "v5", html: Array(#"<em id="v5" title="tip">tips</em>"#.utf8))])
    }

    /// A change deep in markup the page shows without ids renders the nearest element that has its id there.
    @Test func aChangeInsideStaticMarkupRendersTheNearestViewWithAnID() throws {
        let root = try instantiate()
        _ = root.renderHTML(context: RenderContext())
        let emphasis = root.subviews[0].subviews[1]
        emphasis.setAttribute("title", "tip")
        let changes = root.takeChanges(context: RenderContext())
        #expect(changes.map(Fixtures.replacedID) == ["v1"])
        #expect(!root.hasChanges)
    }

    /// Changing the subviews themselves (not reading them) renders the element, markup and all.
    @Test func changingTheSubviewsRendersTheElementWithTheMarkupAsViews() throws {
        let root = try instantiate()
        _ = root.renderHTML(context: RenderContext())
        root.addSubview(Label(text: "new"))
        let changes = root.takeChanges(context: RenderContext())
        #expect(changes.map(Fixtures.replacedID) == ["v1"])
        guard case .replace(_, let html) = changes.first else { return }
        #expect(String(decoding: html, as: UTF8.self).contains(#"<h2 id="#))
    }

    @Test func insertingAndRemovingKeepTheDocumentOrder() throws {
        let root = try instantiate()
        root.insertSubview(Label(text: "new"), at: 1)
        #expect(root.subviews.map(\.tagName) == ["h2", "span", "#text", "span", "p", "form"])
        let other = try instantiate()
        let count: Label = other.outlet("count")
        count.removeFromSuperview()
        #expect(other.subviews.map(\.tagName) == ["h2", "#text", "p", "form"])
        #expect(!other.html.contains("data-outlet=\"count\""))
    }

    /// The markup is shared by every view of the template node; one view making it views leaves the others alone.
    @Test func oneTreeMakingViewsLeavesAnotherTreeOfTheTemplateAlone() throws {
        let template = try Fixtures.screenTemplate(Self.markup)
        let first = template.instantiate()
        let second = template.instantiate()
        _ = first.subviews
        #expect(first.liveSubviews.count == 5)
        #expect(second.liveSubviews.count == 2)
        #expect(!second.html.contains("<h2 id="))
    }

    /// The page's script gives the focus back by id to an element a patch replaced, so what can take the focus keeps
    /// its view and id; its text stays markup.
    @Test func whatCanTakeTheFocusKeepsItsViewAndID() throws {
        let root = try instantiate(
            #"<nav><a href="/">Home</a><input name="q"><span tabindex="0">Go</span><em>static</em></nav>"#)
        #expect(root.liveSubviews.map(\.tagName) == ["a", "input", "span"])
        #expect(root.liveSubviews[0].liveSubviews.isEmpty)
        let expected =
            #"<nav id="v1"><a id="v2" href="/">Home</a><input id="v3" name="q">"#
            + #"<span id="v4" tabindex="0">Go</span><em>static</em></nav>"#
        #expect(root.html == expected)
    }

    /// Each run of markup renders in its own place among the subviews, a lone subview (held without an array) as
    /// well as several, with runs before, between and after them; asking for the subviews makes each run's own
    /// nodes into views in the same places.
    @Test func eachRunOfMarkupRendersInItsPlaceAroundOneSubviewOrMany() throws {
        let lone = try instantiate(#"<p>Rated <em>by</em> <span data-outlet="score">4</span> of <b>5</b></p>"#)
        #expect(lone.liveSubviews.count == 1)
        let loneExpected =
            #"<p id="v1">Rated <em>by</em> <span id="v2" data-outlet="score">4</span> of <b>5</b></p>"#
        #expect(lone.html == loneExpected)
        #expect(lone.subviews.map(\.tagName) == ["#text", "em", "#text", "span", "#text", "b"])

        let several = try instantiate(
            #"<div><i>a</i><span data-outlet="x">1</span><hr><span data-outlet="y">2</span><i>b</i> c</div>"#)
        #expect(several.liveSubviews.map(\.tagName) == ["span", "span"])
        let expected =
            #"<div id="v1"><i>a</i><span id="v2" data-outlet="x">1</span><hr>"#
            + #"<span id="v3" data-outlet="y">2</span><i>b</i> c</div>"#
        #expect(several.html == expected)
        #expect(several.subviews.map(\.tagName) == ["i", "span", "hr", "span", "i", "#text"])
    }

    /// A view made from a template starts with its element's class list, `hidden` and outlet scope, and is marked for
    /// rendering exactly when a class, `hidden` or an ARIA value would have marked it through its setters.
    @Test func aViewStartsWithItsElementsStateAndRenderMark() throws {
        // Elements without text: nothing but their template state can mark them (a label's text would).
        let root = try instantiate(
            #"<div><i data-outlet="c" class="a b"></i><i data-outlet="h" hidden></i>"#
                + #"<i data-outlet="l" aria-label="x"></i><i data-outlet="r" role="note"></i>"#
                + #"<i data-outlet="p"></i></div>"#)
        let names = ["c", "h", "l", "r", "p"]
        let views = names.map { root.outletIfPresent($0) }
        #expect(views.allSatisfy { $0 != nil })
        let classed = views[0]!
        let hidden = views[1]!
        let plain = views[4]!
        #expect(Array(classed.classList) == ["a", "b"] && !classed.isHidden)
        #expect(hidden.isHidden && Array(hidden.classList).isEmpty)
        #expect(views.map { $0?.needsRender } == [true, true, true, true, false])
        #expect(!plain.isHidden && !plain.isOutletScope && !root.isOutletScope)
        #expect(views[2]?.accessibilityLabel == "x" && views[3]?.accessibilityRole == "note")
    }

    /// A static element with a class, `hidden` and ARIA values keeps them all in its markup.
    @Test func staticMarkupKeepsEveryAttribute() throws {
        let root = try instantiate(
            #"<div><span class="star" aria-hidden="true" role="img" aria-label="star" hidden>★</span></div>"#)
        #expect(root.liveSubviews.isEmpty)
        let span = #"<span class="star" aria-hidden="true" role="img" aria-label="star" hidden>★</span>"#
        #expect(root.html == #"<div id="v1">"# + span + "</div>")
    }
}
