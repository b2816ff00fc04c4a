internal import Reactive

/// A node of a screen's view tree, rendered as one HTML element (like `UIView`).
///
/// A view has an element name, attributes in a deterministic order (`id`, `class`, then the others
/// in the order they were first set, then `role`, `aria-label` and `hidden`), a class list,
/// subviews and a superview. Its `domID` is stable for as long as it stays in one tree.
///
/// Changing a property marks the view dirty; the root of the tree reports the smallest dirty
/// subtrees with `takeChanges(context:)`, and calls `invalidationHandler` when the tree goes from
/// clean to dirty, so a screen can schedule one patch per turn.
///
/// Threading: a view tree is confined to its screen's serial scheduler. `View` is not `Sendable`.
///
/// Subclass to make composite views: override `render(into:context:)` or `renderContent(into:context:)`
/// for custom markup, and `awakeFromNib()` to configure outlets after a template built the view.
///
/// ```swift
/// let card = View(tagName: "article")
/// card.classList.insert("card")
/// card.addSubview(Label(text: "Heat", tagName: "h2"))
/// let html = card.renderHTML(context: RenderContext())
/// ```
open class View {
    // Memory: a screen keeps ~50 views alive for its whole life, so a view's size is most of a
    // session's. Stored properties are declared together, small ones side by side so they pack into
    // one word, and what few views use (explicit id, ARIA, the root's handler, confinement and id
    // allocator) lives in `RareState`, allocated on first use.

    // `@exclusivity(unchecked)` on the stored state below (receipt: `View` in Benchmarks/History/26-receipts.md, the
    // largest of them): sound because a tree is confined to one screen's scheduler (one thread at a time) and no
    // code holds an `inout` access to these properties across a call that could reach the tree. Internal only:
    // public properties keep Swift's checks.

    /// The element name, such as `div`, `span` or `button`.
    public var tagName: String {
        if packedTag & 0xFF == 0 { return LongTagNames.name(Int(truncatingIfNeeded: packedTag >> 8)) }
        let (name, count) = packedName
        return String(unsafeUninitializedCapacity: count) { buffer in
            for index in 0..<count { buffer[index] = UInt8(truncatingIfNeeded: name >> UInt64(8 * index)) }
            return count
        }
    }
    // The name's bytes in one word, first byte lowest (names are ASCII, so the top bit is free and says whether the
    // element is void); for a name longer than eight bytes, the name's number in `LongTagNames` above a zero byte
    // (no name starts with one). Kept in the attribute list, with the class list: neither is a word of the view
    // (Benchmarks/History/51-screen-memory-6.md), which keeps a view within the 56 usable bytes `ElementNameTests`
    // holds it to.
    var packedTag: UInt64 { attributeList.packedTag }
    // The element's name, class list and attributes: shared with the template node the view came from (or with every
    // view made in code with its name) until the view changes its class list or an attribute.
    @exclusivity(unchecked) var attributeList: AttributeList
    var attributes: [(name: String, value: String)] { attributeList.items }
    /// Whether this view holds rare state (for tests that it lets it go).
    var holdsRareState: Bool { rare != nil }
    /// Whether this view and `other` hold one attribute list (for tests of the sharing).
    func sharesAttributeList(with other: View) -> Bool { attributeList === other.attributeList }
    @exclusivity(unchecked) var rare: RareState?
    /// The views inside this one, in document order. Reading them changes nothing on the page.
    ///
    /// A view made from a template keeps its static children (plain markup no outlet names) as shared markup until
    /// asked: the first read makes views of them. Those are on the page without their ids until something renders
    /// them, so a change to one renders its nearest ancestor that has its id on the page
    /// (``isStaticMarkupOnPage``).
    public var subviews: [View] {
        if rare?.staticContent != nil { materializeStaticContent(marksForRendering: false) }
        return liveSubviews.array
    }
    /// How many ``subviews`` there are, without making their array.
    var subviewCount: Int {
        if rare?.staticContent != nil { materializeStaticContent(marksForRendering: false) }
        return liveSubviews.count
    }
    /// The subviews without the template's static children that are still markup: for walks that look for views
    /// code can reach (outlets, buttons, changes) and must not turn that markup into views.
    @exclusivity(unchecked) package internal(set) var liveSubviews = SubviewList() {
        // Indices into the list move: the recorded dirty child no longer names one.
        didSet { dirtyChild = Self.anyDirtyChild }
    }
    // Not `weak`: a weak reference costs a side table per parent and an atomic load per step up the
    // tree. Sound because a parent always outlives its link: it clears the links of its subviews
    // when it goes away or lets one go.
    // Kept as `Unmanaged` so a walk up the tree can step without retaining each ancestor (receipt:
    // `View.parentLink` in Benchmarks/History/26-receipts.md).
    @exclusivity(unchecked) var parentLink: Unmanaged<View>?
    var parent: View? {
        get { parentLink?.takeUnretainedValue() }
        set { parentLink = newValue.map { Unmanaged.passUnretained($0) } }
    }
    // The number of the generated DOM id (`v12` is 12; 0: none yet), kept as a number beside the
    // Booleans below instead of as a 16-byte string: the text is made when asked for, which is
    // once per render of the element. Invariant: every stored id in a tree was issued by the
    // allocator of that tree's root, so a stored id is valid without walking up (attaching a
    // subtree re-checks, see `adoptIDs`).
    @exclusivity(unchecked) var storedID: UInt32 = 0

    /// Whether the element is an HTML5 void element (no content, no end tag).
    public var isVoidElement: Bool { packedTag & Self.voidElementBit != 0 }
    static var voidElementBit: UInt64 { 1 << 63 }
    /// A short name's bytes (first lowest) without the void flag, and how many there are.
    var packedName: (bytes: UInt64, count: Int) {
        let name = packedTag & ~Self.voidElementBit
        return (name, (64 - name.leadingZeroBitCount + 7) / 8)
    }

    /// Whether the element renders with the `hidden` attribute.
    public var isHidden: Bool {
        get { storedIsHidden }
        set {
            guard newValue != storedIsHidden else { return }
            storedIsHidden = newValue
            setNeedsRender()
        }
    }
    var storedIsHidden: Bool {
        get { flags & Self.hiddenFlag != 0 }
        set { setFlag(Self.hiddenFlag, newValue) }
    }

    /// Whether this view's own element must be rendered again.
    public internal(set) var needsRender: Bool {
        get { flags & Self.needsRenderFlag != 0 }
        set { setFlag(Self.needsRenderFlag, newValue) }
    }
    var hasDirtyDescendant: Bool {
        get { flags & Self.dirtyDescendantFlag != 0 }
        set { setFlag(Self.dirtyDescendantFlag, newValue) }
    }
    /// While `hasDirtyDescendant`: the index in `liveSubviews` of the one subview below which every change since the
    /// last render lies, or `anyDirtyChild` when there may be more than one (or the view's own structural changes,
    /// or a moved list). Taking the changes then goes down the changed path alone instead of looking at every
    /// subview on the way (cold views, on a server with many screens).
    @exclusivity(unchecked) var dirtyChild = View.anyDirtyChild
    static var anyDirtyChild: UInt16 { .max }

    /// Whether outlet look-ups from above stop at this view (a custom view owns its nib's outlets).
    var isOutletScope: Bool {
        get { flags & Self.outletScopeFlag != 0 }
        set { setFlag(Self.outletScopeFlag, newValue) }
    }

    /// Whether this view was made from a template's static markup that the page shows without ids, and has not been
    /// rendered with its id since: a patch cannot name it, so its changes render an ancestor (``setNeedsRender()``).
    var isStaticMarkupOnPage: Bool {
        get { flags & Self.staticMarkupFlag != 0 }
        set { setFlag(Self.staticMarkupFlag, newValue) }
    }

    /// Whether this view's superview is a container its template kept as markup (``StaticContent``): its `parent` is
    /// the view around that container until code asks for its ``superview``, which makes the container's view.
    var isInMarkupContainer: Bool {
        get { flags & Self.markupContainerFlag != 0 }
        set { setFlag(Self.markupContainerFlag, newValue) }
    }

    /// The view's yes-or-no states in one byte (hidden, needs render, dirty descendant, outlet scope, static markup,
    /// in a markup container, records no changes), beside `dirtyChild` in one word.
    @exclusivity(unchecked) var flags: UInt8 = 0
    /// This view's index among its superview's live subviews when it was attached there (its low byte): where
    /// ``dirtyChildIndex(of:)`` looks first. A hint only, checked against the subviews before it is used (a sibling
    /// inserted or removed since moves the index, a 300th subview's names the 44th); kept in the byte the object's
    /// layout leaves after ``flags``. Unchecked as ``flags`` is: internal, written and read by the view's own tree on
    /// its scheduler in single stores and loads, never across a call that could reach it again (receipt: step 3 of
    /// Benchmarks/History/78-fan-out-screens-8.md).
    @exclusivity(unchecked) var indexHint: UInt8 = 0
    static var hiddenFlag: UInt8 { 1 }
    static var needsRenderFlag: UInt8 { 2 }
    static var dirtyDescendantFlag: UInt8 { 4 }
    static var outletScopeFlag: UInt8 { 8 }
    static var staticMarkupFlag: UInt8 { 16 }
    static var markupContainerFlag: UInt8 { 32 }
    static var unrecordedFlag: UInt8 { 64 }

    @inline(__always)
    func setFlag(_ flag: UInt8, _ isSet: Bool) {
        flags = isSet ? flags | flag : flags & ~flag
    }

    /// The class names of the element. Mutating the list marks the view dirty.
    public var classList: ClassList {
        get { storedClassList }
        set {
            guard newValue != storedClassList else { return }
            storedClassList = newValue
            setNeedsRender()
        }
    }
    // Apart from the public property so templates can set it without the change check. In the attribute list: a
    // change gives the view another list (from a template's, the one made for the same classes lately).
    var storedClassList: ClassList {
        get { attributeList.classList }
        set { attributeList = attributeList.withClassList(newValue) }
    }

    /// Creates a view rendered as a `<tagName>` element.
    ///
    /// Templates create registered view classes through this initializer, so subclasses that add
    /// stored properties give them default values or implement it.
    public required init(tagName: String = "div") {
        var kind = Self.classifyName(tagName)
        var tagName = tagName
        if !kind.isValid && tagName != "#text" {
            ProgrammerErrors.report(
                ProgrammerError(
                    mistake:
                        "View(tagName:) was given “\(tagName)”, which is not an element name; the view is a <div>.",
                    fix: "pass an element name: letters, digits and -, starting with a letter (“section”, “my-card”)."))
            tagName = "div"
            kind = Self.classifyName(tagName)
        }
        let packedTag: UInt64
        if let packed = kind.packed {
            packedTag = packed | (kind.isVoidElement ? Self.voidElementBit : 0)
        } else {
            packedTag = UInt64(LongTagNames.number(for: tagName)) << 8
        }
        attributeList = AttributeList.plain(packedTag: packedTag)
    }

    /// Creates a view of a built-in kind whose element is always the same (a button's `<form>`, an image's `<img>`),
    /// named by its packed name (``packedTag``: ``formTag``, ``imageTag``), not worked out again from a string for each
    /// view made: a template makes its buttons and images through their `init(tagName:)` (Benchmarks/History/65).
    init(fixedTag packedTag: UInt64) {
        attributeList = AttributeList.plain(packedTag: packedTag)
    }

    /// `form`'s packed name, first byte lowest (``classifyName(_:)``).
    static var formTag: UInt64 { 0x6D72_6F66 }
    /// `img`'s packed name, with the void element's bit.
    static var imageTag: UInt64 { 0x67_6D69 | voidElementBit }

    /// Creates a plain element's view from a template with its element's list: its name was checked and packed once,
    /// when the template was compiled (``TemplateStartTag/packedTag``), not again for each view made from it.
    init(templateList: AttributeList) {
        attributeList = templateList
    }

    /// Creates a text node's view: `#text` is void and needs no name check (templates make a text
    /// node for every run of text between elements).
    init(textNode: Void) {
        attributeList = AttributeList.textNode
    }

    deinit {
        // The subviews in place, none retained to clear its link (receipt: Benchmarks/History/68): nothing here
        // changes the list, and the list holds each view for the walk.
        liveSubviews.withViews { views in
            for view in views where view.parentLink?.toOpaque() == Unmanaged.passUnretained(self).toOpaque() {
                view.parentLink = nil
            }
        }
    }

    /// Hook for views that report structural changes of their own (list rows).
    func collectStructuralChanges(
        into changes: inout [ViewChange], context: inout RenderContext?, making makeContext: () -> RenderContext
    ) {}

    /// Hook for views that keep pending structural changes; called when their marks are cleared.
    func discardStructuralChanges() {}

    /// Writes this view's element and content into `html`.
    ///
    /// The default writes the start tag, `renderContent(into:context:)` and the end tag. Override
    /// for different markup; keep `domID` on the outermost element so patches can find it.
    open func render(into html: inout HTMLBuffer, context: RenderContext) {
        if packedTag == Self.htmlTag { html.appendStatic("<!DOCTYPE html>") }
        writeStartTag(into: &html)
        if isVoidElement { return }
        renderContent(into: &html, context: context)
        writeEndTag(into: &html)
    }

    /// Writes the element's content; the default renders the subviews in order (``renderSubviews(into:context:)``).
    open func renderContent(into html: inout HTMLBuffer, context: RenderContext) {
        renderSubviews(into: &html, context: context)
    }

    /// The outlets a custom view expects in its nib, by name and type; templates check them at load.
    ///
    /// ```swift
    /// override class var outletTypes: [String: View.Type] { ["titleLabel": Label.self] }
    /// ```
    open class var outletTypes: [String: View.Type] { [:] }

    /// Called on a view created from a template once its subtree (its nib) is attached.
    open func awakeFromNib() {}

    // MARK: Reading a template element

    /// The attributes of its template element this kind reads itself in ``templateConfiguration(from:)``: they are
    /// not rendered as the template gives them. Every other attribute is kept on the element. None by default.
    ///
    /// ```swift
    /// override class var templateAttributes: Set<String> { ["data-count"] }
    /// ```
    open class var templateAttributes: Set<String> { [] }

    /// Whether the element's content becomes the view's subviews (by default), or is this kind's to read, as a
    /// label's text is: then the content makes no views.
    open class var templateContentIsSubviews: Bool { true }

    /// Reads this kind's template element when templates load, like UIKit's `init(coder:)`: checks it, and returns
    /// what every view made from it is given (or `nil` for nothing).
    ///
    /// Called once per element at start-up, never per screen; a mistake throws ``TemplateElement/error(_:)``, which
    /// names the file, the line and the outlet, and the app does not start. A subclass that adds to its
    /// superclass's reading calls `super` and joins the two with ``TemplateConfiguration/followed(by:)``.
    ///
    /// ```swift
    /// override class func templateConfiguration(from element: TemplateElement) throws(TemplateError)
    ///     -> TemplateConfiguration?
    /// {
    ///     let tone = element.attribute("data-tone") ?? "info"
    ///     return TemplateConfiguration(BadgeView.self) { $0.tone = tone }
    /// }
    /// ```
    open class func templateConfiguration(from element: TemplateElement) throws(TemplateError)
        -> TemplateConfiguration?
    {
        nil
    }

    /// Whether an element without `data-view` is of this kind (a `<button>` with an action is a button): asked of
    /// the framework's own kinds, in the ``ViewRegistry``, when templates load.
    class func isInferred(from element: TemplateElement) -> Bool { false }
}

@available(*, unavailable)
extension View: Sendable {}
