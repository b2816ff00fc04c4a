import Testing
import ViewKit

@Suite struct ViewRenderingTests {
    @Test func rendersIdClassAttributesAndAccessibilityInADeterministicOrder() {
        let view = View(tagName: "section")
        view.setAttribute("data-kind", "hero")
        view.accessibilityLabel = "Hero"
        view.classList.insert("card")
        view.setAttribute("title", "A \"quoted\" title")
        view.accessibilityRole = "region"
        view.isHidden = true
        #expect(
            view.html
                == #"<section id="v1" class="card" data-kind="hero" title="A &quot;quoted&quot; title" role="region" aria-label="Hero" hidden></section>"#
        )
    }

    @Test func aClassListRendersItsNamesAfterEveryChange() {
        let view = View(tagName: "p")
        view.classList = ["card", "a\"b", "card", "x y"]
        #expect(view.classList.value == #"card a"b x y"#)
        #expect(view.html == #"<p id="v1" class="card a&quot;b x y"></p>"#)
        view.classList.remove("x")
        view.classList.insert("<new>")
        #expect(view.html == #"<p id="v1" class="card a&quot;b y &lt;new&gt;"></p>"#)
        view.classList.insert("card")
        view.classList.remove("absent")
        #expect(view.classList == ["card", "a\"b", "y", "<new>"])
        #expect(view.classList != ["card", "a\"b", "<new>", "y"])
        for name in ["card", "a\"b", "y", "<new>"] { view.classList.remove(name) }
        #expect(view.classList.isEmpty && view.classList == [])
        #expect(view.html == #"<p id="v1"></p>"#)
    }

    @Test func attributesAddedForOneRenderingAreWrittenThenAndNotKept() {
        let page = View(tagName: "html")
        page.setAttribute("lang", "en")
        page.accessibilityRole = "document"
        page.addSubview(Label(text: "<body>"))
        let once = String(
            decoding: page.renderHTML(context: RenderContext(), addingToStartTag: [("data-at", "\"now\"")]),
            as: UTF8.self)
        #expect(
            once
                == #"<!DOCTYPE html><html id="v1" lang="en" data-at="&quot;now&quot;" role="document"><span id="v2">&lt;body&gt;</span></html>"#
        )
        #expect(page.attribute("data-at") == nil)
        #expect(!page.html.contains("data-at"))
        let rule = View(tagName: "hr")
        #expect(
            String(decoding: rule.renderHTML(context: RenderContext(), addingToStartTag: [("a", "b")]), as: UTF8.self)
                == #"<hr id="v1" a="b">"#)
    }

    @Test func rendersVoidElementsWithoutEndTagAndRefusesTheirChildren() {
        let rule = View(tagName: "hr")
        #expect(rule.html == #"<hr id="v1">"#)
        #expect(rule.isVoidElement)
    }

    @Test func rendersEmptyAttributeValuesInTheBooleanForm() {
        let input = View(tagName: "input")
        input.setAttribute("required", "")
        input.setAttribute("value", "x")
        #expect(input.html == #"<input id="v1" required value="x">"#)
    }

    @Test func removesAttributesSetToNil() {
        let view = View()
        view.setAttribute("title", "t")
        view.setAttribute("title", nil)
        view.setAttribute("class", "a b")
        #expect(view.attribute("title") == nil)
        #expect(view.attribute("class") == "a b")
        #expect(view.classList.contains("b"))
    }

    @Test func rendersSubviewsInOrderWithoutWhitespace() {
        let list = View(tagName: "ul")
        for name in ["one", "two"] { list.addSubview(Label(text: name, tagName: "li")) }
        list.insertSubview(Label(text: "zero", tagName: "li"), at: 0)
        #expect(list.html == #"<ul id="v1"><li id="v2">zero</li><li id="v3">one</li><li id="v4">two</li></ul>"#)
    }

    @Test func rendersTheSameTreeToTheSameBytes() {
        func build() -> View {
            let root = View(tagName: "main")
            root.addSubview(Label(text: "a < b", tagName: "p"))
            root.addSubview(Button(title: "Go", actionName: "go"))
            return root
        }
        #expect(build().renderHTML(context: RenderContext()) == build().renderHTML(context: RenderContext()))
    }

    @Test func keepsDomIDsStableWhileAViewStaysInItsTree() {
        let root = View()
        let first = Label(text: "1")
        let second = Label(text: "2")
        root.addSubview(first)
        root.addSubview(second)
        _ = root.html
        let ids = (first.domID, second.domID)
        second.removeFromSuperview()
        root.insertSubview(second, at: 0)
        root.addSubview(Label(text: "3"))
        _ = root.html
        #expect((first.domID, second.domID) == ids)
        #expect(Set(root.subviews.map(\.domID)).count == 3)
    }

    @Test func aViewRecognisesItsOwnDOMIDWithoutMakingIt() {
        let root = View()
        let views = (0..<12).map { _ in Label(text: "x") }
        for view in views { root.addSubview(view) }
        let unnamed = Label(text: "not rendered")
        #expect(!unnamed.hasDOMID("v1"))
        _ = root.html
        let tenth = views[9]
        #expect(tenth.domID == "v11")
        #expect(tenth.hasDOMID("v11"))
        for other in ["v1", "v10", "v110", "v011", "v", "", "11", "w11", "v11 ", "v1a", "v99999999999999999999"] {
            #expect(!tenth.hasDOMID(other), "\(other)")
        }
        #expect(views.allSatisfy { $0.hasDOMID($0.domID) })
        #expect(!unnamed.hasDOMID("v13"))
        root.setAttribute("id", "page")
        #expect(root.hasDOMID("page"))
        #expect(!root.hasDOMID("v1"))
    }

    @Test func aViewIsReplacedOnlyByAReplaceOfItsOwnID() {
        let root = View()
        let label = Label(text: "x")
        root.addSubview(Label(text: "before"))
        root.addSubview(label)
        let unrendered = Label(text: "not rendered")
        _ = root.html
        let id = label.domID
        let html = Array("<span>y</span>".utf8)
        #expect(label.isReplaced(by: [.replace(id: id, html: html)]))
        #expect(label.isReplaced(by: [.remove(id: "v9"), .replace(id: "v9", html: html), .replace(id: id, html: [])]))
        #expect(!label.isReplaced(by: []))
        #expect(!label.isReplaced(by: [.replace(id: id + "0", html: html), .replace(id: "", html: html)]))
        // Other changes naming the view do not replace it.
        #expect(!label.isReplaced(by: [.remove(id: id), .move(id: id, parentID: id, beforeID: id)]))
        #expect(!label.isReplaced(by: [.insert(parentID: id, beforeID: id, html: html)]))
        #expect(!unrendered.isReplaced(by: [.replace(id: "v1", html: html), .replace(id: id, html: html)]))
        root.setAttribute("id", "page")
        #expect(root.isReplaced(by: [.replace(id: id, html: html), .replace(id: "page", html: html)]))
        #expect(!root.isReplaced(by: [.replace(id: "v1", html: html)]))
    }

    @Test func explicitIDReplacesTheGeneratedOne() {
        let view = View()
        view.setAttribute("id", "content")
        #expect(view.domID == "content")
        #expect(view.html == #"<div id="content"></div>"#)
    }

    @Test func textNodesRenderEscapedTextWithoutAnElement() {
        let paragraph = View(tagName: "p")
        paragraph.addSubview(TextNode(text: "Fish & chips "))
        paragraph.addSubview(Label(text: "<b>", tagName: "em"))
        #expect(paragraph.html == #"<p id="v1">Fish &amp; chips <em id="v2">&lt;b&gt;</em></p>"#)
    }

    @Test func htmlRootIsPrecededByTheDoctype() {
        let html = View(tagName: "html")
        html.addSubview(View(tagName: "body"))
        #expect(html.html == #"<!DOCTYPE html><html id="v1"><body id="v2"></body></html>"#)
    }

    @Test func findsOutletsByNameAndType() {
        let root = View()
        let title = Label(text: "Heat")
        title.setAttribute("data-outlet", "titleLabel")
        let box = View()
        box.addSubview(title)
        root.addSubview(box)
        let found: Label = root.outlet("titleLabel")
        #expect(found === title)
        #expect(root.outletIfPresent("missing") == nil)
    }
}
