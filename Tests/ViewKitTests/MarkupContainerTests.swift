import Testing

@testable import ViewKit

/// A plain container around views (no outlet, id, custom view, action or `hidden`: a toolbar's `<nav>`, a layout's
/// `<div>`) is markup around them: the view made from the element around it holds its views, until code asks for the
/// subviews or for one of those views' superview, which makes the container's view in its place.
@Suite struct MarkupContainerTests {
    private static let markup = """
        <article><nav class="bar"><span data-outlet="first">1</span><div class="end">\
        <span data-outlet="second">2</span><p>static</p></div></nav><section data-outlet="last"></section></article>
        """

    private func instantiate(_ markup: String = Self.markup) throws -> View {
        try Fixtures.screenTemplate(markup).instantiate()
    }

    @Test func containersAreMarkupAroundTheirViewsAndRenderWithoutIDs() throws {
        let root = try instantiate()
        let first: Label = root.outlet("first")
        let second: Label = root.outlet("second")
        let last: View = root.outlet("last")
        #expect(root.liveSubviews.count == 3)
        #expect(root.liveSubviews[0] === first && root.liveSubviews[1] === second && root.liveSubviews[2] === last)
        let expected = [
            #"<article id="v1"><nav class="bar"><span id="v2" data-outlet="first">1</span><div class="end">"#,
            #"<span id="v3" data-outlet="second">2</span><p>static</p></div></nav>"#,
            #"<section id="v4" data-outlet="last"></section></article>"#,
        ]
        #expect(root.html == expected.joined())
        #expect(second.isDescendant(of: root) && !root.isDescendant(of: second))
        #expect(second.rootView === root)
    }

    @Test func aChangeInsideAContainerIsAPatchOfTheChangedViewAlone() throws {
        let root = try instantiate()
        _ = root.renderHTML(context: RenderContext())
        let second: Label = root.outlet("second")
        second.text = "two"
        #expect(
            root.takeChanges(context: RenderContext())
                == [.replace(id: "v3", html: Array(#"<span id="v3" data-outlet="second">two</span>"#.utf8))])
        #expect(root.liveSubviews.count == 3)
    }

    /// Asking for a view's superview makes the containers up to the view around them, as the template has them, and
    /// changes nothing on the page; the containers are shown without ids, so a change to one renders that view.
    @Test func askingForTheSuperviewMakesTheContainersWithoutAChange() throws {
        let root = try instantiate()
        _ = root.renderHTML(context: RenderContext())
        let second: Label = root.outlet("second")
        let end = try #require(second.superview)
        #expect(end.tagName == "div" && Array(end.classList) == ["end"])
        let bar = try #require(end.superview)
        #expect(bar.tagName == "nav" && bar.superview === root)
        #expect(root.subviews.map(\.tagName) == ["nav", "section"])
        #expect(bar.subviews.map(\.tagName) == ["span", "div"])
        #expect(bar.subviews[0] === root.outlet("first") as Label)
        #expect(end.subviews.map(\.tagName) == ["span", "p"] && end.subviews[0] === second)
        #expect(!root.hasChanges)
        #expect(root.takeChanges(context: RenderContext()).isEmpty)

        // The views inside keep their ids and their own patches.
        second.text = "two"
        #expect(root.takeChanges(context: RenderContext()).map(Fixtures.replacedID) == ["v3"])
        // A change to a container renders the view around it, which gives the container its id.
        end.classList.insert("wide")
        let changes = root.takeChanges(context: RenderContext())
        #expect(changes.map(Fixtures.replacedID) == ["v1"])
        guard case .replace(_, let html) = changes.first else { return }
        let page = String(decoding: html, as: UTF8.self)
        #expect(page.contains(#"<nav id="v5" class="bar"><span id="v2" data-outlet="first">1</span>"#))
        #expect(page.contains(#"<div id="v6" class="end wide"><span id="v3" data-outlet="second">two</span>"#))
        end.isHidden = true
        #expect(root.takeChanges(context: RenderContext()).map(Fixtures.replacedID) == ["v6"])
    }

    /// Reading the subviews makes one level of containers; the views deeper down keep the next one as markup until
    /// asked in turn.
    @Test func readingTheSubviewsMakesOneLevelAtATime() throws {
        let root = try instantiate()
        let subviews = root.subviews
        #expect(subviews.map(\.tagName) == ["nav", "section"])
        let bar = subviews[0]
        #expect(bar.liveSubviews.count == 2)  // the first span and the second: the `<div>` is still markup
        #expect(root.html.contains(#"<div class="end"><span id="#))
        #expect(bar.subviews.map(\.tagName) == ["span", "div"])
    }

    @Test func removingAndAddingAViewInsideAContainerKeepsTheTemplatesTree() throws {
        let root = try instantiate()
        _ = root.renderHTML(context: RenderContext())
        let second: Label = root.outlet("second")
        second.removeFromSuperview()
        #expect(second.superview == nil && !second.isDescendant(of: root))
        #expect(!root.html.contains("data-outlet=\"second\""))
        // A change of the container's subviews renders it with its id, its static markup made views.
        #expect(root.html.contains(#"<div id="v6" class="end"><p id="v7">static</p></div></nav>"#))
        let last: View = root.outlet("last")
        last.addSubview(second)
        #expect(second.superview === last)
        #expect(root.html.contains(#"<section id="v4" data-outlet="last"><span id="v3" data-outlet="second">2</span>"#))
    }

    /// What a container kept as markup is not: a hidden element (a view asked whether it is hidden in its tree walks
    /// up its parents), an outlet, and a list's child (a row is its list's subview).
    @Test func hiddenElementsOutletsAndListChildrenStayViews() throws {
        let root = try instantiate(
            #"<div><p hidden><span data-outlet="a">a</span></p><p data-outlet="b"><span data-outlet="c">c</span></p>"#
                + #"<ul data-view="ListView"><li><span data-outlet="d">d</span></li></ul></div>"#)
        #expect(root.liveSubviews.map(\.tagName) == ["p", "p", "ul"])
        #expect(root.liveSubviews[2].liveSubviews.map(\.tagName) == ["li"])
    }

    /// Whether a view is hidden in its tree (what a posted action asks of its button) is answered through the
    /// containers kept as markup, without making their views.
    @Test func askingWhetherAViewIsHiddenInItsTreeLeavesTheContainersMarkup() throws {
        let root = try instantiate()
        let second: Label = root.outlet("second")
        #expect(!second.isHiddenInTree)
        #expect(root.liveSubviews.count == 3)
        root.isHidden = true
        #expect(second.isHiddenInTree)
        #expect(root.liveSubviews.count == 3)
        root.isHidden = false
        second.isHidden = true
        #expect(second.isHiddenInTree && !root.isHiddenInTree)
        #expect(root.liveSubviews.count == 3)
    }

    /// A template's views share the containers' markup; one tree making their views leaves another alone.
    @Test func oneTreeMakingContainersLeavesAnotherTreeOfTheTemplateAlone() throws {
        let template = try Fixtures.screenTemplate(Self.markup)
        let first = template.instantiate()
        let second = template.instantiate()
        _ = first.subviews
        #expect(first.liveSubviews.count == 2)
        #expect(second.liveSubviews.count == 3)
        #expect(!second.html.contains("<nav id="))
    }
}
