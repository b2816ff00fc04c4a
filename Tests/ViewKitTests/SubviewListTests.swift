import Testing

@testable import ViewKit

/// A view keeps its subviews as none, one held directly or an array (``SubviewList``): the tree reads the same through
/// every change that moves it from one form to another.
@Suite struct SubviewListTests {
    static func ids(_ views: [View]) -> [String] { views.map { ($0 as? Label)?.text ?? "?" } }
    static func render(_ view: View) -> String {
        String(decoding: view.renderHTML(context: RenderContext()), as: UTF8.self)
    }

    @Test func subviewsReadTheSameAsTheyGoFromNoneToOneToManyAndBack() {
        let parent = View(tagName: "ul")
        let a = Label(text: "a", tagName: "li")
        let b = Label(text: "b", tagName: "li")
        let c = Label(text: "c", tagName: "li")
        #expect(parent.subviews.isEmpty && parent.liveSubviews.isEmpty && parent.liveSubviews.first == nil)
        parent.addSubview(b)
        #expect(Self.ids(parent.subviews) == ["b"])
        #expect(parent.liveSubviews.count == 1 && parent.liveSubviews.first === b && parent.liveSubviews[0] === b)
        parent.insertSubview(a, at: 0)
        parent.addSubview(c)
        #expect(Self.ids(parent.subviews) == ["a", "b", "c"])
        #expect(Self.ids(Array(parent.liveSubviews)) == ["a", "b", "c"])
        #expect(Self.render(parent) == #"<ul id="v1"><li id="v2">a</li><li id="v3">b</li><li id="v4">c</li></ul>"#)
        b.removeFromSuperview()
        a.removeFromSuperview()
        #expect(Self.ids(parent.subviews) == ["c"] && c.superview === parent && a.superview == nil)
        #expect(Self.render(parent) == #"<ul id="v1"><li id="v4">c</li></ul>"#)
        parent.insertSubview(a, at: 0)
        #expect(Self.ids(parent.subviews) == ["a", "c"])
        c.removeFromSuperview()
        a.removeFromSuperview()
        #expect(parent.subviews.isEmpty && parent.liveSubviews.count == 0)
        #expect(Self.render(parent) == #"<ul id="v1"></ul>"#)
    }

    @Test func aLoneSubviewIsFoundAsAnOutletAndItsChangesArePatched() throws {
        let library = try TemplateLibrary(
            directory: try Fixtures.temporaryTemplates([
                "Lone.html": #"<section><div><p data-outlet="line">x</p></div></section>"#
            ]), registry: Fixtures.registry())
        let root = try library.template(named: "Lone").instantiate()
        let line: Label = root.outlet("line")
        // The plain `<div>` around it is markup: the section holds the label itself.
        #expect(root.liveSubviews.count == 1 && root.liveSubviews[0] === line)
        _ = root.renderHTML(context: RenderContext())
        line.text = "y"
        let changes = root.takeChanges(context: RenderContext())
        #expect(changes.count == 1)
        guard case .replace(let id, let html) = changes.first else {
            Issue.record("expected a replace, got \(changes)")
            return
        }
        #expect(id == line.domID && String(decoding: html, as: UTF8.self).contains(">y</p>"))
    }
}
