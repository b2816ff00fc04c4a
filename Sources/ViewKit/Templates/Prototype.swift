/// An immutable, pre-resolved node of a template: instantiating it is a straight walk that creates
/// views and copies prepared values, with no parsing, look-ups or checks left to do.
///
/// A class, not a struct: each screen instantiates the tree, and reading a struct node out of its
/// parent's array copied it (a retain and release per string, class list and attribute array in
/// it); a reference costs one.
final class Prototype: Sendable {
    enum Kind: Sendable {
        case text(String, isRaw: Bool)
        case element(ElementNode)
    }

    /// An element's prepared values behind one reference: taking the node out of `Kind` costs
    /// one retain, where taking the struct out copied (retained) each of its strings and arrays.
    final class ElementNode: Sendable {
        let element: Element

        init(_ element: Element) {
            self.element = element
        }
    }

    struct Element: Sendable {
        var viewType: View.Type
        var tagName: String
        var attributes: [(name: String, value: String)]
        var explicitID: String?
        var classList: ClassList
        var isHidden: Bool
        var accessibilityLabel: String?
        var accessibilityRole: String?
        /// What the view's kind read from its element, given to each view made from it.
        var configuration: TemplateConfiguration?
        var isOutletScope: Bool
    }

    // The kind, kept as plain fields: switching on a stored `Kind` copied it (a retain and a release of its node or
    // text) for every view made from the node (Benchmarks/History/47).
    /// The element's prepared values; nil for text.
    let elementNode: ElementNode?
    /// A text node's text; empty for an element.
    let text: String
    /// Whether a text node's text is written as it is (a `<script>`'s or `<style>`'s).
    let isRawText: Bool
    let children: [Prototype]
    let line: Int
    /// Whether this node is static markup: text, or a plain element with no outlet, id, custom view or action,
    /// whose children are static too. No code can reach such a node through outlets, so a view made from the
    /// template leaves it as markup (``StaticContent``) until asked for its subviews.
    let isStatic: Bool
    /// The element's attributes, rendered once here and shared by every view made from this node.
    let attributeList: AttributeList?
    /// The element's explicit id, ARIA values and static content, likewise shared.
    let rareState: View.RareState?
    /// Whether the element's view is a plain ``View`` (no kind of its own): made from its compiled name, without the
    /// class's initializer checking the name again.
    let isPlainView: Bool
    /// Whether the element's view is a ``Label``: made from its compiled name too (`Label` is final and its
    /// initializer does nothing but name the element; Benchmarks/History/40).
    let isLabel: Bool
    /// Whether the views made from this node may hold a button once made: false only when every element of the
    /// subtree is a plain view, a label or an image (kinds whose initializers, configurations and `awakeFromNib()`
    /// make no subviews). A table connects the buttons of each cell it makes; a cell of such a prototype has none to
    /// look for.
    let mayHoldButtons: Bool
    /// Whether this node is a plain container around views: a plain element with no outlet, id, custom view, action
    /// or `hidden` (what ``isStatic`` asks of an element) whose subtree holds views. No code can reach it through
    /// outlets, so a view made from the parent template element leaves it as markup around those views, which it
    /// holds as its own subviews, until code asks for the subviews or for one's superview (``StaticContent``).
    let isMarkupAround: Bool
    /// The children a view made from this node makes into subviews: all of them, or, when the node keeps static
    /// content, those that are not static, with the views of the containers kept as markup in their places. Worked
    /// out once here, not for each view (Benchmarks/History/47).
    let liveChildren: [Prototype]
    /// For each of ``liveChildren``, whether it is inside a container kept as markup (its view's superview is made
    /// when asked for); empty when none is.
    let nestedLiveChildren: [Bool]
    /// The element's list, with its compiled name (``TemplateStartTag/packedTag``), for a plain view or a label, made
    /// from it without its name checked again; nil for other kinds.
    let compiledList: AttributeList?
    /// The flags (``View/flags``: hidden, outlet scope, needs render) a view made from the element starts with, read
    /// from the element once here: a view takes them without reaching the element (Benchmarks/History/47).
    let viewFlags: UInt8
    /// What the view's kind read from its element, given to each view made from it.
    let configuration: TemplateConfiguration?

    init(kind: Kind, children: [Prototype], line: Int) {
        switch kind {
        case .text(let text, let isRaw):
            elementNode = nil
            self.text = text
            isRawText = isRaw
        case .element(let node):
            elementNode = node
            text = ""
            isRawText = false
        }
        self.children = children
        self.line = line
        if case .element(let node) = kind {
            let type = ObjectIdentifier(node.element.viewType)
            isPlainView = type == ObjectIdentifier(View.self)
            isLabel = type == ObjectIdentifier(Label.self)
            mayHoldButtons =
                !(isPlainView || type == ObjectIdentifier(Label.self) || type == ObjectIdentifier(ImageView.self))
                || children.contains(where: \.mayHoldButtons)
        } else {
            isPlainView = false
            isLabel = false
            mayHoldButtons = false
        }
        switch kind {
        case .text:
            isStatic = true
            isMarkupAround = false
        case .element(let node):
            let element = node.element
            let isPlain =
                ObjectIdentifier(element.viewType) == ObjectIdentifier(View.self) && element.configuration == nil
            let isMarkup =
                isPlain && element.explicitID == nil && !element.isOutletScope && !Self.canTakeFocus(element)
                && !element.attributes.contains { $0.name == "data-outlet" }
            isStatic = isMarkup && children.allSatisfy(\.isStatic)
            isMarkupAround = isMarkup && !isStatic && !element.isHidden
        }
        // A list's children stay its subviews: its rows are told apart by which of its subviews they are in.
        let keepsContainers: Bool
        if case .element(let node) = kind {
            keepsContainers = node.element.viewType is ListView.Type
        } else {
            keepsContainers = true
        }
        if case .element(let node) = kind {
            // Every element's views share one list, even an empty one: it carries the element's compiled tags.
            let element = node.element
            attributeList = AttributeList(template: element.attributes, classList: element.classList) { rendered in
                TemplateStartTag(
                    tagName: element.tagName, classList: element.classList, attributes: rendered,
                    accessibilityRole: element.accessibilityRole, accessibilityLabel: element.accessibilityLabel,
                    isHidden: element.isHidden)
            }
        } else {
            attributeList = nil
        }
        if case .element(let node) = kind {
            rareState = View.RareState.template(
                explicitID: node.element.explicitID, accessibilityLabel: node.element.accessibilityLabel,
                accessibilityRole: node.element.accessibilityRole,
                staticContent: children.contains { $0.isStatic || ($0.isMarkupAround && !keepsContainers) }
                    ? StaticContent(children, keepsContainers: keepsContainers) : nil)
        } else {
            rareState = nil
        }
        if let content = rareState?.staticContent {
            liveChildren = content.liveChildren
            nestedLiveChildren = content.nestedLiveChildren
        } else {
            liveChildren = children
            nestedLiveChildren = []
        }
        compiledList = isPlainView || isLabel ? attributeList : nil
        if case .element(let node) = kind {
            let element = node.element
            let marked =
                !element.classList.isEmpty || element.isHidden || element.accessibilityLabel != nil
                || element.accessibilityRole != nil
            viewFlags =
                (element.isHidden ? View.hiddenFlag : 0) | (element.isOutletScope ? View.outletScopeFlag : 0)
                | (marked ? View.needsRenderFlag : 0)
            configuration = element.configuration
        } else {
            viewFlags = 0
            configuration = nil
        }
    }

    /// Whether the element can hold the keyboard focus. Such an element keeps its view and id although no code reaches
    /// it: the page's script gives the focus back by id to an element a patch replaced (a link in a bar that a patch
    /// hides and shows, say).
    private static func canTakeFocus(_ element: Element) -> Bool {
        switch element.tagName {
        case "a", "area", "button", "input", "select", "textarea", "summary", "iframe", "object", "embed", "audio",
            "video":
            return true
        default:
            return element.attributes.contains { $0.name == "tabindex" || $0.name == "contenteditable" }
        }
    }

    /// Creates the view tree; each view's `awakeFromNib()` runs once its subtree is attached. Made for one render
    /// (``View/buildingForOneRender(_:)``), its views record no path to their changes.
    func instantiate() -> View {
        instantiate(recordingChanges: !View.isBuildingForOneRender)
    }

    /// Creates the view tree, whose views record the paths to their changes or not (``View/recordsChanges``).
    func instantiate(recordingChanges: Bool) -> View {
        // Made by a function returning it, not assigned to a variable declared first: that variable was a copy of
        // the new view, retained and the original released.
        guard let view = makeElementView(flags: recordingChanges ? viewFlags : viewFlags | View.unrecordedFlag) else {
            return isRawText ? RawTextNode(text: text) : TextNode(text: text)
        }
        configuration?.apply(view)
        // Static children stay markup in the shared rare state; the others become subviews. Exact capacity:
        // the array lives as long as the screen, and growing it by doubling would leave up to half of it unused.
        let children = liveChildren
        view.reserveSubviewCapacity(children.count)
        let nested = nestedLiveChildren
        if nested.isEmpty {
            for index in children.indices {
                view.appendTemplateSubview(children[index].instantiate(recordingChanges: recordingChanges))
            }
        } else {
            for index in children.indices {
                let subview = children[index].instantiate(recordingChanges: recordingChanges)
                subview.isInMarkupContainer = nested[index]
                view.appendTemplateSubview(subview)
            }
        }
        view.awakeFromNib()
        return view
    }

    /// The element's view with its template state, before its configuration and subviews; nil for text.
    @inline(__always)
    private func makeElementView(flags: UInt8) -> View? {
        if let compiledList {
            let view = isLabel ? Label(templateList: compiledList) : View(templateList: compiledList)
            // Made with the element's own list: the flags and the rare state are what is left to take. Handing the
            // list over again, as another kind's view needs, retained it twice more and released it once.
            view.adoptCompiledTemplateState(flags: flags, rare: rareState)
            return view
        }
        guard let node = elementNode else { return nil }
        let view = node.element.viewType.init(tagName: node.element.tagName)
        if let attributeList { view.adoptTemplateState(flags: flags, attributes: attributeList, rare: rareState) }
        return view
    }

    /// Makes the view of a container kept as markup (``isMarkupAround``) without its subviews: the views inside it
    /// exist already, held by the view around it until now.
    func instantiateContainer(recordingChanges: Bool) -> View {
        // Such a container is a plain view: its compiled list names it.
        guard let compiledList else { return View() }
        let view = View(templateList: compiledList)
        if let attributeList {
            view.adoptTemplateState(
                flags: recordingChanges ? viewFlags : viewFlags | View.unrecordedFlag,
                attributes: attributeList,
                rare: rareState)
        }
        return view
    }
}

/// A template element's children as the views made from it keep them: the static ones (``Prototype/isStatic``) as
/// markup rendered once, shared by every such view, between the places of the others, which are subviews.
///
/// Static markup holds no generated ids: no patch ever targets it. Code reaches it only by asking the view for its
/// ``View/subviews``, which turns it into views (``View/materializeStaticContent(marksForRendering:)``) that the page
/// still shows without ids; a change to one renders the nearest view whose id the page has. On a detail
/// screen that spares some fourteen views (metas, links, labels' captions, a heading) and their arrays.
///
/// A plain container around views (``Prototype/isMarkupAround``: a `<head>`, a toolbar's `<nav>`, a `<div>` for the
/// layout) is markup too, its start tag before the views inside it and its end tag after them: those views are
/// this element's subviews (its ``View/liveSubviews``) until code asks for the subviews, or for the superview of
/// one of them, which makes the container's view in its place and moves them into it. The tree code sees is the
/// template's; a list's children are not kept so (a row is the list's own subview).
final class StaticContent: Sendable {
    /// A place among the element's children, in order. Holds no reference: reading one out of ``slots`` copies a
    /// number, where a run's markup and nodes held in the slot were a retain and a release each for every run of
    /// every render (Benchmarks/History/47).
    enum Slot: Sendable {
        /// The next subview.
        case subview
        /// A run of markup: static children, and the start and end tags of containers kept as markup.
        case markup(run: Int)
    }

    let slots: [Slot]
    /// Each run's markup, rendered once.
    let markup: [[UInt8]]
    /// The element's children, to make the markup into views in its places.
    let children: [Prototype]
    /// The live views' nodes in document order: the element's children that are neither static nor kept as markup
    /// around views, and the live children of those kept so, through any depth.
    let liveChildren: [Prototype]
    /// For each of ``liveChildren``, whether it is inside a child kept as markup; empty when none is.
    let nestedLiveChildren: [Bool]
    /// Whether the element's children that are containers around views stay views (a list's do).
    let keepsContainers: Bool

    /// The content of an element with `children`; with `keepsContainers`, only static children become markup.
    init(_ children: [Prototype], keepsContainers: Bool) {
        var slots: [Slot] = []
        var markup: [[UInt8]] = []
        var liveChildren: [Prototype] = []
        var nested: [Bool] = []
        var html = HTMLBuffer(capacity: 256)
        var hasRun = false
        func endRun() {
            guard hasRun else { return }
            slots.append(.markup(run: markup.count))
            markup.append(html.bytes)
            html = HTMLBuffer(capacity: 256)
            hasRun = false
        }
        func add(_ nodes: [Prototype], depth: Int) {
            for node in nodes {
                if node.isStatic {
                    node.instantiate(recordingChanges: true).renderStaticMarkup(into: &html)
                    hasRun = true
                } else if node.isMarkupAround && !keepsContainers {
                    let container = node.instantiateContainer(recordingChanges: true)
                    container.writeStaticStartTag(into: &html)
                    hasRun = true
                    add(node.children, depth: depth + 1)
                    container.writeEndTag(into: &html)
                    hasRun = true
                } else {
                    endRun()
                    slots.append(.subview)
                    liveChildren.append(node)
                    nested.append(depth > 0)
                }
            }
        }
        add(children, depth: 0)
        endRun()
        self.slots = slots
        self.markup = markup
        self.children = children
        self.liveChildren = liveChildren
        self.nestedLiveChildren = nested.contains(true) ? nested : []
        self.keepsContainers = keepsContainers
    }
}
