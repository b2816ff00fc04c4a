public import Reactive

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

    // `@exclusivity(unchecked)`: the tree is walked on every outlet look-up and every change
    // collection, and the run-time exclusivity check on each read of these class properties cost
    // more than the walk itself. A tree is confined to one screen's scheduler (one thread at a
    // time), and no code holds an `inout` access to them across a call that could reach the tree.

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
    // (no name starts with one).
    // A `String` here took 16 bytes and the void flag a ninth byte in the word below: with both, a view took a
    // 96-byte allocation; now 80.
    private let packedTag: UInt64
    // Shared with the template node the view came from until the view changes an attribute.
    @exclusivity(unchecked) private var attributeList: AttributeList?
    private var attributes: [(name: String, value: String)] { attributeList?.items ?? [] }
    /// Whether this view holds rare state (for tests that it lets it go).
    var holdsRareState: Bool { rare != nil }
    /// Whether this view and `other` hold one attribute list (for tests of the sharing).
    func sharesAttributeList(with other: View) -> Bool { attributeList != nil && attributeList === other.attributeList }
    @exclusivity(unchecked) private var rare: RareState?
    /// The views inside this one, in document order.
    ///
    /// A view made from a template keeps its static children (plain markup no outlet names) as shared markup until
    /// asked: the first call turns them into views (marking this view for rendering, so the page gets them with the
    /// ids they render with from then on).
    public var subviews: [View] {
        materializeStaticContent()
        return liveSubviews
    }
    /// The subviews without the template's static children that are still markup: for walks that look for views
    /// code can reach (outlets, buttons, changes) and must not turn that markup into views.
    @exclusivity(unchecked) package private(set) var liveSubviews: [View] = [] {
        // Indices into the list move: the recorded dirty child no longer names one.
        didSet { dirtyChild = Self.anyDirtyChild }
    }
    // Not `weak`: weak references cost a side table per parent and an atomic load per step up the
    // tree, which showed in render profiles. A parent always outlives its link: it clears the
    // links of its subviews when it goes away or lets one go.
    // Kept as `Unmanaged` so a walk up the tree can step without retaining each ancestor.
    @exclusivity(unchecked) private var parentLink: Unmanaged<View>?
    private var parent: View? {
        get { parentLink?.takeUnretainedValue() }
        set { parentLink = newValue.map { Unmanaged.passUnretained($0) } }
    }
    // The number of the generated DOM id (`v12` is 12; 0: none yet), kept as a number beside the
    // Booleans below instead of as a 16-byte string: the text is made when asked for, which is
    // once per render of the element. Invariant: every stored id in a tree was issued by the
    // allocator of that tree's root, so a stored id is valid without walking up (attaching a
    // subtree re-checks, see `adoptIDs`).
    @exclusivity(unchecked) private var storedID: UInt32 = 0

    /// Whether the element is an HTML5 void element (no content, no end tag).
    public var isVoidElement: Bool { packedTag & Self.voidElementBit != 0 }
    private static var voidElementBit: UInt64 { 1 << 63 }
    /// A short name's bytes (first lowest) without the void flag, and how many there are.
    private var packedName: (bytes: UInt64, count: Int) {
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
    private var storedIsHidden: Bool {
        get { flags & Self.hiddenFlag != 0 }
        set { setFlag(Self.hiddenFlag, newValue) }
    }

    /// Whether this view's own element must be rendered again.
    public private(set) var needsRender: Bool {
        get { flags & Self.needsRenderFlag != 0 }
        set { setFlag(Self.needsRenderFlag, newValue) }
    }
    private(set) var hasDirtyDescendant: Bool {
        get { flags & Self.dirtyDescendantFlag != 0 }
        set { setFlag(Self.dirtyDescendantFlag, newValue) }
    }
    /// While `hasDirtyDescendant`: the index in `liveSubviews` of the one subview below which every change since the
    /// last render lies, or `anyDirtyChild` when there may be more than one (or the view's own structural changes,
    /// or a moved list). Taking the changes then goes down the changed path alone instead of looking at every
    /// subview on the way: a screen's label change looked at some twenty views, cold ones at 10,000 screens.
    @exclusivity(unchecked) private var dirtyChild = View.anyDirtyChild
    private static var anyDirtyChild: UInt16 { .max }

    /// Whether outlet look-ups from above stop at this view (a custom view owns its nib's outlets).
    var isOutletScope: Bool {
        get { flags & Self.outletScopeFlag != 0 }
        set { setFlag(Self.outletScopeFlag, newValue) }
    }

    /// The view's yes-or-no states in one byte (hidden, needs render, dirty descendant, outlet scope), which leaves
    /// room for `dirtyChild` in the 72 bytes a view takes.
    @exclusivity(unchecked) private var flags: UInt8 = 0
    private static var hiddenFlag: UInt8 { 1 }
    private static var needsRenderFlag: UInt8 { 2 }
    private static var dirtyDescendantFlag: UInt8 { 4 }
    private static var outletScopeFlag: UInt8 { 8 }

    @inline(__always)
    private func setFlag(_ flag: UInt8, _ isSet: Bool) {
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
    // Stored apart from the public property so templates can set it without the change check.
    @exclusivity(unchecked) private var storedClassList = ClassList()

    /// What few views of a tree hold; see the note at the top of the class.
    ///
    /// A template node with an explicit id or ARIA values makes one, shared by every view made from the node (as its
    /// attributes are) and never changed: a view copies it before its first change. `@unchecked Sendable` for that
    /// shared, read-only use; a view's own is confined to its tree like the view.
    final class RareState: @unchecked Sendable {
        var explicitID: String?
        var accessibilityLabel: String?
        var accessibilityRole: String?
        var invalidationHandler: (() -> Void)?
        var confinement: ScreenScheduler?
        /// `confinement`'s ``ScreenScheduler/confinementKey``: what a check compares, with no reference counted.
        var confinementKey: UnsafeMutableRawPointer?
        var ownAllocator: DOMIDAllocator?
        /// The template's static children, still markup (see ``StaticContent``).
        var staticContent: StaticContent?
        let isShared: Bool

        var isEmpty: Bool {
            explicitID == nil && accessibilityLabel == nil && accessibilityRole == nil && invalidationHandler == nil
                && confinement == nil && ownAllocator == nil && staticContent == nil
        }

        init(isShared: Bool = false) {
            self.isShared = isShared
        }

        /// The state a template node's views start with, or nil when there is none.
        static func template(
            explicitID: String?, accessibilityLabel: String?, accessibilityRole: String?, staticContent: StaticContent?
        ) -> RareState? {
            guard explicitID != nil || accessibilityLabel != nil || accessibilityRole != nil || staticContent != nil
            else { return nil }
            let shared = RareState(isShared: true)
            shared.explicitID = explicitID
            shared.accessibilityLabel = accessibilityLabel
            shared.accessibilityRole = accessibilityRole
            shared.staticContent = staticContent
            return shared
        }

        /// Takes the values a template gives: its explicit id, ARIA values and static content.
        func takeTemplateValues(of template: RareState) {
            explicitID = template.explicitID
            accessibilityLabel = template.accessibilityLabel
            accessibilityRole = template.accessibilityRole
            staticContent = template.staticContent
        }
    }

    /// This view's own rare state, made (or copied from its template's) for a change.
    private var rareState: RareState {
        if let rare, !rare.isShared { return rare }
        let created = RareState()
        if let shared = rare { created.takeTemplateValues(of: shared) }
        rare = created
        return created
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
        if let packed = kind.packed {
            packedTag = packed | (kind.isVoidElement ? Self.voidElementBit : 0)
        } else {
            packedTag = UInt64(LongTagNames.number(for: tagName)) << 8
        }
    }

    /// Creates a text node's view: `#text` is void and needs no name check (templates make a text
    /// node for every run of text between elements, so the check showed in page profiles).
    init(textNode: Void) {
        packedTag = Self.textNodeTag
    }

    // MARK: Attributes

    private var explicitID: String? {
        get { rare?.explicitID }
        set { if newValue != nil || rare != nil { rareState.explicitID = newValue } }
    }

    /// The accessible name, rendered as `aria-label`.
    public var accessibilityLabel: String? {
        get { rare?.accessibilityLabel }
        set {
            guard newValue != rare?.accessibilityLabel else { return }
            rareState.accessibilityLabel = newValue
            setNeedsRender()
        }
    }

    /// The ARIA role, rendered as `role` (for example `"status"` or `"navigation"`).
    public var accessibilityRole: String? {
        get { rare?.accessibilityRole }
        set {
            guard newValue != rare?.accessibilityRole else { return }
            rareState.accessibilityRole = newValue
            setNeedsRender()
        }
    }

    /// The value of the attribute `name`, or `nil` when it is not set.
    ///
    /// `id`, `class`, `hidden`, `aria-label` and `role` read the matching properties.
    public func attribute(_ name: String) -> String? {
        switch name {
        case "id": return domID
        case "class": return classList.isEmpty ? nil : classList.value
        case "hidden": return isHidden ? "" : nil
        case "aria-label": return accessibilityLabel
        case "role": return accessibilityRole
        default: return attributes.first { $0.name == name }?.value
        }
    }

    /// Sets the attribute `name` to `value`, or removes it when `value` is `nil`.
    ///
    /// An empty value renders in the boolean form (`disabled`). `class`, `hidden`, `aria-label` and
    /// `role` set the matching properties; `id` replaces the generated DOM id and must be unique in
    /// the page. Names must be valid attribute names (letters, digits, `-`, `_`, `:`, `.`).
    public func setAttribute(_ name: String, _ value: String?) {
        guard Self.isValidName(name) else {
            ProgrammerErrors.report(
                ProgrammerError(
                    mistake: "View.setAttribute was given “\(name)”, which is not an attribute name; nothing was set.",
                    fix: "use letters, digits, -, _, : and . only (“data-kind”, “aria-expanded”)."))
            return
        }
        switch name {
        case "class": classList = ClassList(value.map { [$0] } ?? [])
        case "hidden": isHidden = value != nil
        case "aria-label": accessibilityLabel = value
        case "role": accessibilityRole = value
        case "id":
            explicitID = value
            setNeedsRender()
        default:
            var items = attributes
            if let index = items.firstIndex(where: { $0.name == name }) {
                if let value {
                    guard items[index].value != value else { return }
                    items[index].value = value
                } else {
                    items.remove(at: index)
                }
            } else if let value {
                items.append((name, value))
            } else {
                return
            }
            if items.isEmpty {
                attributeList = nil
            } else if let attributeList {
                self.attributeList = attributeList.changing(name, to: value, giving: items)
            } else {
                attributeList = AttributeList(items)
            }
            setNeedsRender()
        }
    }

    /// Gives a fresh view (no superview, no handler, not confined) its template element's state
    /// without the setters' checks: the same outcome as setting each property, including the
    /// render mark that any class, `hidden` or ARIA value would have set.
    final func adoptTemplateState(_ node: Prototype.ElementNode, attributes: AttributeList?, rare shared: RareState?) {
        // The element is read through its node, field by field: taken whole as an argument it was copied (a retain
        // of each of its strings and arrays, and their releases) for every element of every page.
        attributeList = attributes
        if let shared {
            if let own = rare, !own.isShared {  // set up by a subclass's initializer
                own.takeTemplateValues(of: shared)
            } else {
                rare = shared
            }
        }
        storedClassList = node.element.classList
        storedIsHidden = node.element.isHidden
        isOutletScope = node.element.isOutletScope
        if !storedClassList.isEmpty || storedIsHidden || node.element.accessibilityLabel != nil
            || node.element.accessibilityRole != nil
        {
            needsRender = true
        }
    }

    // MARK: Tree

    /// The view this one is inside, if any.
    public var superview: View? { parent }

    /// Whether `view` is this view or one of its superviews (UIKit's `isDescendant(of:)`).
    public final func isDescendant(of view: View) -> Bool {
        var current = Unmanaged.passUnretained(self)
        while true {
            if current.toOpaque() == Unmanaged.passUnretained(view).toOpaque() { return true }
            guard let parent = current._withUnsafeGuaranteedRef({ $0.parentLink }) else { return false }
            current = parent
        }
    }

    deinit {
        for view in liveSubviews where view.parent === self { view.parent = nil }
    }

    /// Appends `view` as the last subview, removing it from its previous superview first.
    public func addSubview(_ view: View) {
        insertSubview(view, at: subviews.count)
    }

    /// Inserts `view` at `index` among the subviews, removing it from its previous superview first.
    public func insertSubview(_ view: View, at index: Int) {
        func refuse(_ mistake: String, _ fix: String) {
            ProgrammerErrors.report(ProgrammerError(mistake: "View.insertSubview: " + mistake, fix: fix))
        }
        guard !isVoidElement else {
            return refuse(
                "<\(tagName)> is a void element and has no content; nothing was added.", "add it to a container.")
        }
        var ancestor: View? = self
        while let node = ancestor {
            guard node !== view else {
                return refuse(
                    "a view cannot contain itself or its ancestor; nothing was added.",
                    "add the view to another view, outside its own subtree.")
            }
            ancestor = node.superview
        }
        view.removeFromSuperview()
        materializeStaticContent()
        attachSubviewQuietly(view, at: Swift.min(Swift.max(index, 0), liveSubviews.count))
        setNeedsRender()
    }

    /// Removes this view from its superview, keeping its DOM ids for a later return to the same tree.
    public func removeFromSuperview() {
        guard let oldParent = parent else { return }
        let allocator = oldParent.treeAllocator
        oldParent.materializeStaticContent()
        oldParent.liveSubviews.removeAll { $0 === self }
        parent = nil
        ownAllocator = allocator
        oldParent.setNeedsRender()
    }

    /// Attaches `view` at `index` without marking anything dirty (list views record their own changes).
    func attachSubviewQuietly(_ view: View, at index: Int) {
        materializeStaticContent()
        attachLiveSubview(view, at: index)
    }

    private func attachLiveSubview(_ view: View, at index: Int) {
        if let incoming = view.ownAllocator { adoptIDs(of: view, issuedBy: incoming) }
        if index == liveSubviews.count {
            liveSubviews.append(view)
        } else {
            liveSubviews.insert(view, at: index)
        }
        view.parent = self
        view.ownAllocator = nil
        if view.needsRender || view.hasDirtyDescendant { markDirtyDescendant(below: view) }
    }

    /// Keeps the ids of a subtree joining this tree when they come from this tree's allocator (or
    /// this tree has none yet and takes the subtree's); forgets them otherwise, to be reissued.
    private func adoptIDs(of subtree: View, issuedBy incoming: DOMIDAllocator) {
        let root = rootView
        if root.ownAllocator == nil { root.ownAllocator = incoming }
        guard root.ownAllocator !== incoming else { return }
        var stack = [subtree]
        while let view = stack.popLast() {
            view.storedID = 0
            stack.append(contentsOf: view.liveSubviews)
        }
    }

    /// Makes room for `count` subviews in all, so attaching them allocates once.
    func reserveSubviewCapacity(_ count: Int) {
        if count > 0 { liveSubviews.reserveCapacity(count) }
    }

    /// Appends a view made from a template node's child beside the node's static content (``StaticContent``).
    final func appendTemplateSubview(_ view: View) {
        attachLiveSubview(view, at: liveSubviews.count)
    }

    /// Turns the static children a template left as markup into views, in their places among the subviews.
    ///
    /// Marks this view for rendering: the page shows that markup without ids, and the new views render with theirs.
    final func materializeStaticContent() {
        guard let content = rare?.staticContent else { return }
        var all: [View] = []
        all.reserveCapacity(liveSubviews.count + content.slots.count)
        var next = 0
        for slot in content.slots {
            switch slot {
            case .subview:
                // Every change to the subviews comes here first, so they still fill the content's places.
                if next < liveSubviews.count { all.append(liveSubviews[next]) }
                next += 1
            case .markup(_, let nodes):
                for node in nodes {
                    let view = node.instantiate()
                    view.parent = self
                    all.append(view)
                }
            }
        }
        if next < liveSubviews.count { all.append(contentsOf: liveSubviews[next...]) }
        liveSubviews = all
        if let shared = rare, shared.isShared {
            // The template's state, shared with every view of the node: this view takes its own copy without it.
            let own = RareState()
            own.takeTemplateValues(of: shared)
            own.staticContent = nil
            rare = own.isEmpty ? nil : own
        } else if let own = rare {
            own.staticContent = nil
            if own.isEmpty { rare = nil }
        }
        setNeedsRender()
    }

    /// Detaches the subview at `index` without marking anything dirty.
    func detachSubviewQuietly(at index: Int) {
        let allocator = treeAllocator
        materializeStaticContent()
        let view = liveSubviews.remove(at: index)
        view.parent = nil
        view.ownAllocator = allocator
    }

    /// Replaces the subviews' order without marking anything dirty; `order` holds the same views.
    func reorderSubviewsQuietly(_ order: [View]) {
        materializeStaticContent()
        liveSubviews = order
    }

    /// The topmost ancestor (the view itself when it has no superview).
    public var rootView: View {
        var node = self
        while let parent = node.superview { node = parent }
        return node
    }

    /// `rootView` for the hot paths (every first `domID`, every confinement check): the walk up
    /// does not retain each ancestor, which is sound because a parent outlives its link (see
    /// `parent`) and the tree is confined to one thread.
    private var unretainedRoot: View {
        var node = Unmanaged.passUnretained(self)
        while let next = node._withUnsafeGuaranteedRef({ $0.parentLink }) { node = next }
        return node.takeUnretainedValue()
    }

    // MARK: DOM ids

    private var ownAllocator: DOMIDAllocator? {
        get { rare?.ownAllocator }
        set {
            if let newValue {
                rareState.ownAllocator = newValue
            } else if let rare, rare.ownAllocator != nil {
                // A subtree joining a tree gives up its allocator; its rare state often held nothing else.
                rare.ownAllocator = nil
                if rare.isEmpty { self.rare = nil }
            }
        }
    }

    private var treeAllocator: DOMIDAllocator {
        let root = unretainedRoot
        if let allocator = root.ownAllocator { return allocator }
        let allocator = DOMIDAllocator()
        root.ownAllocator = allocator
        return allocator
    }

    /// The element's `id`: generated (`v1`, `v2`, … in the order views are first rendered or asked),
    /// or the `id` attribute a template gave it. Stable for as long as the view stays in its tree.
    public var domID: String {
        if let explicitID { return explicitID }
        if storedID == 0 { storedID = treeAllocator.allocate() }
        return Self.generatedID(storedID)
    }

    /// Whether `id` is this view's ``domID``, compared without making the id's string (a screen checks each patch's
    /// ids against its page's on every flush). A view that has no id yet, never rendered nor asked, has none.
    public func hasDOMID(_ id: String) -> Bool {
        if let explicitID { return explicitID.hasSameUTF8(as: id) }
        guard storedID != 0 else { return false }
        var id = id
        return id.withUTF8 { bytes in
            // `v` and the number's decimal digits, without a leading zero.
            guard bytes.count >= 2, bytes.count <= 11, bytes[0] == UInt8(ascii: "v"), bytes[1] != UInt8(ascii: "0")
            else { return false }
            var value: UInt64 = 0
            for byte in bytes[1...] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return false }
                value = value * 10 + UInt64(byte - UInt8(ascii: "0"))
            }
            return value == UInt64(storedID)
        }
    }

    /// Writes ` id="…"` as `appendAttribute("id", domID)` would, without making the id's string:
    /// a generated id's digits go straight into the buffer.
    final func writeIDAttribute(into html: inout HTMLBuffer) {
        if let explicitID {
            html.appendAttribute(static: "id", explicitID)
            return
        }
        if storedID == 0 { storedID = treeAllocator.allocate() }
        html.appendStatic(" id=\"v")
        html.appendDecimal(storedID)
        html.append(0x22)
    }

    /// `v` and the number in decimal, built in place: at most 11 bytes, so a small string that
    /// needs no allocation.
    private static func generatedID(_ number: UInt32) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 11) { buffer in
            var end = buffer.count
            var rest = number
            repeat {
                end -= 1
                buffer[end] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            end -= 1
            buffer[end] = UInt8(ascii: "v")
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[end...]), as: UTF8.self)
        }
    }

    // MARK: Dirty tracking

    /// Called on the root view when its tree goes from clean to dirty, once until the changes are taken.
    public var invalidationHandler: (() -> Void)? {
        get { rare?.invalidationHandler }
        set { if newValue != nil || rare != nil { rareState.invalidationHandler = newValue } }
    }

    // MARK: Confinement

    private var confinement: ScreenScheduler? {
        get { rare?.confinement }
        set {
            if newValue != nil || rare != nil {
                rareState.confinement = newValue
                rareState.confinementKey = newValue?.confinementKey
            }
        }
    }

    /// Confines this tree (call it on the root) to `scheduler`: from now on, changing a view of the
    /// tree, taking its changes or rendering it anywhere else stops the process with a message
    /// naming the scheduler, like GRDB's queue watchdog. Costs one thread-local look-up per change.
    ///
    /// ```swift
    /// let root = template.instantiate()
    /// root.confine(to: screenScheduler)
    /// ```
    public func confine(to scheduler: ScreenScheduler) {
        confinement = scheduler
    }

    private func checkConfinement(_ what: @autoclosure () -> String) {
        // The scheduler's key compared with the thread's, not the scheduler itself asked: that retained and released
        // it, and a scheduler's count is kept in a side table (its lane holds it weakly), some 120 instructions a check
        // on every change, flush and render of every screen.
        guard let key = unretainedRoot.rare?.confinementKey, key != ScreenScheduler.currentKey else { return }
        unretainedRoot.confinement?.assertCurrent("\(what()) (<\(tagName)> in a confined view tree)")
    }

    /// Marks this view (and so its subtree) for rendering; property setters call it.
    public func setNeedsRender() {
        guard !needsRender else { return }
        checkConfinement("Changing a view")
        let wasClean = superview == nil && !hasDirtyDescendant
        needsRender = true
        if wasClean {
            invalidationHandler?()
        } else {
            superview?.markDirtyDescendant(below: self)
        }
    }

    /// Records that something below this view changed, up to the root: below `child` (one of its subviews), or
    /// anywhere below it when `child` is `nil`.
    func markDirtyDescendant(below child: View? = nil) {
        // Up the parent links without retaining each ancestor (a label's change walks to the root on every screen
        // of a fan-out): a parent outlives its link, and `self` and `child` are held by the caller.
        var current = Unmanaged.passUnretained(self)
        var from = child.map { Unmanaged.passUnretained($0) }
        while true {
            let reachedRoot = current._withUnsafeGuaranteedRef { view -> Bool in
                if view.hasDirtyDescendant {
                    // The path above is marked already; the slot names this child or there are now two.
                    if view.dirtyChild != Self.anyDirtyChild && view.dirtyChildIndex(of: from) != view.dirtyChild {
                        view.dirtyChild = Self.anyDirtyChild
                    }
                    return true
                }
                view.hasDirtyDescendant = true
                view.dirtyChild = view.dirtyChildIndex(of: from)
                guard let parent = view.parentLink else {
                    if !view.needsRender { view.invalidationHandler?() }
                    return true
                }
                from = current
                current = parent
                return false
            }
            if reachedRoot { return }
        }
    }

    /// The index of `child` among the subviews as a dirty-child slot: `anyDirtyChild` for `nil`, for a view that is
    /// not a subview, or past the slot's range. Compares references only; the subviews are not touched.
    private func dirtyChildIndex(of child: Unmanaged<View>?) -> UInt16 {
        guard let child else { return Self.anyDirtyChild }
        let target = child.toOpaque()
        return liveSubviews.withUnsafeBufferPointer { subviews in
            for index in 0..<Swift.min(subviews.count, Int(Self.anyDirtyChild))
            where Unmanaged.passUnretained(subviews[index]).toOpaque() == target {
                return UInt16(index)
            }
            return Self.anyDirtyChild
        }
    }

    /// Whether this view or anything below it has changes not yet taken.
    public var hasChanges: Bool { needsRender || hasDirtyDescendant }

    /// Returns the changes since the last render as patch steps and clears the marks.
    ///
    /// Call it on the root. Each dirty view is rendered once, as the outermost dirty element of its
    /// subtree; list views report row insertions, removals and moves instead of re-rendering.
    public func takeChanges(context: RenderContext) -> [ViewChange] {
        checkConfinement("Taking a view tree's changes")
        var changes: [ViewChange] = []
        collectChanges(into: &changes, context: context)
        return changes
    }

    private func collectChanges(into changes: inout [ViewChange], context: RenderContext) {
        if needsRender {
            changes.append(.replace(id: domID, html: renderHTML(context: context)))
            return
        }
        guard hasDirtyDescendant else { return }
        hasDirtyDescendant = false
        collectStructuralChanges(into: &changes, context: context)
        let slot = Int(dirtyChild)
        if dirtyChild != Self.anyDirtyChild && slot < liveSubviews.count {
            liveSubviews[slot].collectChanges(into: &changes, context: context)
        } else {
            for view in liveSubviews { view.collectChanges(into: &changes, context: context) }
        }
    }

    /// Hook for views that report structural changes of their own (list rows).
    func collectStructuralChanges(into changes: inout [ViewChange], context: RenderContext) {}

    /// Hook for views that keep pending structural changes; called when their marks are cleared.
    func discardStructuralChanges() {}

    private func clearMarks() {
        let descend = hasDirtyDescendant
        needsRender = false
        hasDirtyDescendant = false
        discardStructuralChanges()
        if descend { for view in liveSubviews { view.clearMarks() } }
    }

    // MARK: Rendering

    /// Renders this view's subtree as HTML5 and clears its dirty marks (what was rendered is current).
    ///
    /// A view whose element is `html` is preceded by `<!DOCTYPE html>`.
    public func renderHTML(context: RenderContext) -> [UInt8] {
        checkConfinement("Rendering a view")
        let bytes = HTMLBuffer.withReusedStorage(capacity: 1024) { html in
            render(into: &html, context: context)
            return html.bytes
        }
        clearMarks()
        return bytes
    }

    /// Renders this view's subtree like ``renderHTML(context:)``, with `attributes` added to this view's own start
    /// tag for this rendering only (after its attributes, before `role`, `aria-label` and `hidden`).
    ///
    /// For facts of the moment of rendering, such as where a page's events are and the last one sent: stored with
    /// ``setAttribute(_:_:)`` they would give the view an attribute list of its own instead of its template's
    /// shared one. Renders with the default ``render(into:context:)`` for this view (subviews render as usual).
    public func renderHTML(context: RenderContext, addingToStartTag attributes: [(String, String)]) -> [UInt8] {
        checkConfinement("Rendering a view")
        let bytes = HTMLBuffer.withReusedStorage(capacity: 1024) { html in
            if packedTag == Self.htmlTag { html.appendStatic("<!DOCTYPE html>") }
            writeStartTag(into: &html, extraAttributes: attributes)
            if !isVoidElement {
                renderContent(into: &html, context: context)
                writeEndTag(into: &html)
            }
            return html.bytes
        }
        clearMarks()
        return bytes
    }

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

    /// Writes the subviews in order, with the template's static children that are still markup in their places.
    public final func renderSubviews(into html: inout HTMLBuffer, context: RenderContext) {
        guard let content = rare?.staticContent else {
            for view in liveSubviews { view.render(into: &html, context: context) }
            return
        }
        var next = 0
        for slot in content.slots {
            switch slot {
            case .subview:
                if next < liveSubviews.count { liveSubviews[next].render(into: &html, context: context) }
                next += 1
            case .markup(let bytes, _):
                html.append(bytes)
            }
        }
    }

    /// Writes this subtree as markup without ids: the shared markup of a template's static children.
    final func renderStaticMarkup(into html: inout HTMLBuffer) {
        if packedTag == Self.textNodeTag { return render(into: &html, context: RenderContext()) }
        html.append(UInt8(ascii: "<"))
        appendTagName(to: &html)
        writeAttributes(into: &html, includeID: false, extraClasses: [], extraAttributes: [])
        html.append(UInt8(ascii: ">"))
        if isVoidElement { return }
        if let content = rare?.staticContent {
            // A static element's children are all static: one run of markup already rendered.
            for case .markup(let bytes, _) in content.slots { html.append(bytes) }
        } else {
            for view in liveSubviews { view.renderStaticMarkup(into: &html) }
        }
        writeEndTag(into: &html)
    }

    /// Writes `<tag id="…" class="…" …>` with this view's attributes, plus `extraClasses` after the
    /// class list and `extraAttributes` after the other attributes.
    public func writeStartTag(
        into html: inout HTMLBuffer, extraClasses: [String] = [], extraAttributes: [(String, String)] = []
    ) {
        html.append(UInt8(ascii: "<"))
        appendTagName(to: &html)
        writeAttributes(into: &html, includeID: true, extraClasses: extraClasses, extraAttributes: extraAttributes)
        html.append(UInt8(ascii: ">"))
    }

    /// Writes `</tag>`.
    public func writeEndTag(into html: inout HTMLBuffer) {
        html.appendStatic("</")
        appendTagName(to: &html)
        html.append(UInt8(ascii: ">"))
    }

    private func appendTagName(to html: inout HTMLBuffer) {
        if packedTag & 0xFF == 0 { return html.appendRaw(tagName) }
        let (name, count) = packedName
        withUnsafeBytes(of: name.littleEndian) { bytes in
            html.append(UnsafeBufferPointer(rebasing: bytes.bindMemory(to: UInt8.self)[..<count]))
        }
    }

    func writeAttributes(
        into html: inout HTMLBuffer, includeID: Bool, includeHidden: Bool = true, extraClasses: [String],
        extraAttributes: [(String, String)]
    ) {
        writeLeadingAttributes(into: &html, includeID: includeID, extraClasses: extraClasses)
        for attribute in extraAttributes { html.appendAttribute(attribute.0, attribute.1) }
        writeTrailingAttributes(into: &html, includeHidden: includeHidden)
    }

    /// The attributes before a subclass's extra ones: `id`, `class` and the view's own attributes.
    /// Views with fixed extras write them between this and `writeTrailingAttributes`, without
    /// building an array of them on every render.
    final func writeLeadingAttributes(into html: inout HTMLBuffer, includeID: Bool, extraClasses: [String]) {
        if includeID { writeIDAttribute(into: &html) }
        if extraClasses.isEmpty {
            if !storedClassList.isEmpty { storedClassList.writeAttribute(into: &html) }
        } else {
            var classes = classList
            for name in extraClasses { classes.insert(name) }
            html.appendAttribute(static: "class", classes.value)
        }
        if let attributeList { html.append(attributeList.rendered) }
    }

    /// The attributes after a subclass's extra ones: `role`, `aria-label` and `hidden`.
    final func writeTrailingAttributes(into html: inout HTMLBuffer, includeHidden: Bool) {
        if let accessibilityRole { html.appendAttribute(static: "role", accessibilityRole) }
        if let accessibilityLabel { html.appendAttribute(static: "aria-label", accessibilityLabel) }
        if includeHidden && isHidden { html.appendAttribute(static: "hidden", "") }
    }

    // MARK: Outlets and templates

    /// The view named `name` by a `data-outlet` attribute in this view's scope, or `nil`.
    ///
    /// The search covers this view's subtree but does not enter custom views created from
    /// `data-view` (their nib outlets are theirs); such a view itself can be found.
    public func outletIfPresent(_ name: String) -> View? {
        // Custom views and binders read outlets on every update, so a look-up walks the tree in
        // place: no stack array, and the attribute list scanned directly.
        for view in liveSubviews {
            if let found = view.outletInSubtree(name) { return found }
        }
        return nil
    }

    /// Whether this view's `data-outlet` attribute is `name`.
    package final func isOutlet(named name: String) -> Bool {
        attributeList?.outletName == name
    }

    /// This view when it is the outlet `name`, else the first such view below it (in document
    /// order) short of custom views' nibs.
    private final func outletInSubtree(_ name: String) -> View? {
        if attributeList?.outletName == name { return self }
        guard !isOutletScope else { return nil }
        for view in liveSubviews {
            if let found = view.outletInSubtree(name) { return found }
        }
        return nil
    }

    /// The view named `name` by `data-outlet`, as a `V`. A missing outlet or another type is a programmer error
    /// (templates are validated at start-up, so it shows in the first test, not at a user's request): it is
    /// reported, naming the outlet, and a detached view of the type stands in, so the screen fails and the process
    /// goes on.
    ///
    /// ```swift
    /// let backButton: Button = view.outlet("backButton")
    /// ```
    public func outlet<V: View>(_ name: String, as type: V.Type = V.self) -> V {
        guard let view = outletIfPresent(name) else {
            ProgrammerErrors.report(
                ProgrammerError(
                    mistake: "The outlet '\(name)' was not found under <\(tagName)> (\(Self.self)).",
                    fix: "mark the element with data-outlet=\"\(name)\" in the template, or read the outlet it has."))
            return V(tagName: "div")
        }
        guard let typed = view as? V else {
            ProgrammerErrors.report(
                ProgrammerError(
                    mistake: "The outlet '\(name)' is a \(Swift.type(of: view)), not a \(V.self).",
                    fix: "declare it as a \(Swift.type(of: view)), or change the element in the template."))
            return V(tagName: "div")
        }
        return typed
    }

    /// The outlets a custom view expects in its nib, by name and type; templates check them at load.
    ///
    /// ```swift
    /// override class var outletTypes: [String: View.Type] { ["titleLabel": Label.self] }
    /// ```
    open class var outletTypes: [String: View.Type] { [:] }

    /// Called on a view created from a template once its subtree (its nib) is attached.
    open func awakeFromNib() {}

    // MARK: Names

    // Every view's initializer asks both questions below, so they read the name's bytes once,
    // without hashing (a `Set<String>` look-up hashed the name) or the generic `UTF8View` walk.

    /// Whether `name` is an HTML5 void element (or `#text`).
    static func isVoidElementName(_ name: String) -> Bool {
        classifyName(name).isVoidElement
    }

    /// Whether `name` is a valid element or attribute name.
    static func isValidName(_ name: String) -> Bool {
        classifyName(name).isValid
    }

    /// Checks `name` (letters, digits, `-`, `_`, `:`, `.`; not starting with `-` or `.`) and
    /// tells whether it names a void element (or is `#text`), in one pass over its bytes.
    /// `packed` holds the bytes of a valid name of at most eight bytes, first byte lowest (see `packedTag`).
    static func classifyName(_ name: String) -> (isValid: Bool, isVoidElement: Bool, packed: UInt64?) {
        var name = name
        return name.withUTF8 { bytes in
            guard let first = bytes.first else { return (false, false, nil) }
            var isValid = first != UInt8(ascii: "-") && first != UInt8(ascii: ".")
            var packed: UInt64 = 0
            var littleEndian: UInt64 = 0
            for (index, byte) in bytes.enumerated() {
                packed = packed &<< 8 | UInt64(byte)
                if index < 8 { littleEndian |= UInt64(byte) &<< UInt64(8 * index) }
                // One bit per allowed byte in a 128-bit mask.
                let word = byte < 0x40 ? Self.nameBytesLow : Self.nameBytesHigh
                if byte >= 0x80 || (word >> UInt64(byte & 0x3F)) & 1 == 0 { isValid = false }
            }
            let stored = bytes.count <= 8 ? littleEndian : nil
            guard bytes.count >= 2 && bytes.count <= 6 else { return (isValid, false, stored) }
            return (isValid, Self.isVoidElementPacked(packed), stored)
        }
    }

    /// `#text` and `html` as `packedTag` holds them.
    private static var textNodeTag: UInt64 { 0x7478_6574_23 | voidElementBit }
    private static var htmlTag: UInt64 { 0x6C6D_7468 }

    /// Whether `packed` (a name's bytes, big-endian) is a void element's name or `#text`. Literals, not tables:
    /// every view made checks its name, and a table read goes through a lazy-initialisation check each time.
    private static func isVoidElementPacked(_ packed: UInt64) -> Bool {
        switch packed {
        case 0x23_7465_7874,  // #text
            0x6172_6561,  // area
            0x6261_7365,  // base
            0x6272,  // br
            0x63_6F6C,  // col
            0x65_6D62_6564,  // embed
            0x6872,  // hr
            0x69_6D67,  // img
            0x69_6E70_7574,  // input
            0x6C69_6E6B,  // link
            0x6D65_7461,  // meta
            0x736F_7572_6365,  // source
            0x74_7261_636B,  // track
            0x77_6272:  // wbr
            true
        default:
            false
        }
    }

    /// Bit `n` is set when ASCII byte `n` (below 0x40) may appear in a name: digits, `-`, `.`, `:`.
    private static var nameBytesLow: UInt64 { 0x07FF_6000_0000_0000 }

    /// Bit `n` is set when ASCII byte `0x40 + n` may appear in a name: letters and `_`.
    private static var nameBytesHigh: UInt64 { 0x07FF_FFFE_87FF_FFFE }
}

@available(*, unavailable)
extension View: Sendable {}

/// A view's own attributes in order, with the same already rendered as ` name="value"` bytes, so a
/// view made from a template writes its template attributes as one copy. Immutable: all views a
/// template node makes share one; a view that changes an attribute gets another, shared with the views of that
/// node that made the same change last (every screen setting its `theme-color` to the same value, say). Only a
/// template's list remembers its last change: were the lists made from it to remember theirs, a view changing an
/// attribute again and again would leave a chain of every list it had.
///
/// `@unchecked Sendable`: `items` and `rendered` never change, and `lastChange` is read and written only under
/// `lock`.
final class AttributeList: @unchecked Sendable {
    /// The attributes, in the order they were first set.
    let items: [(name: String, value: String)]
    /// What `HTMLBuffer.appendAttribute` writes for each item, in order.
    let rendered: [UInt8]
    /// The value of the first `data-outlet` item: looked for once per list, not on every outlet lookup (a binder
    /// reads its outlets on every change of its screen).
    let outletName: String?
    private let isTemplate: Bool
    private let lock = InlineLock()
    private var lastChange: Change?

    /// A change of one attribute and the list it made.
    private final class Change: Sendable {
        let name: String
        let value: String?
        let list: AttributeList

        init(name: String, value: String?, list: AttributeList) {
            self.name = name
            self.value = value
            self.list = list
        }
    }

    init(_ items: [(name: String, value: String)], isTemplate: Bool = false) {
        self.items = items
        self.isTemplate = isTemplate
        outletName = items.first { $0.name == "data-outlet" }?.value
        var html = HTMLBuffer(capacity: 64)
        for item in items { html.appendAttribute(item.name, item.value) }
        rendered = html.bytes
    }

    /// The list this one becomes with `name` set to `value` (removed when nil), which is `items`: the one made for
    /// the same change last time, or a new one.
    func changing(_ name: String, to value: String?, giving items: [(name: String, value: String)]) -> AttributeList {
        guard isTemplate else { return AttributeList(items) }
        if let last = lock.withLock({ lastChange }), last.name == name, last.value == value { return last.list }
        let list = AttributeList(items)
        lock.withLock { lastChange = Change(name: name, value: value, list: list) }
        return list
    }
}

/// Hands out DOM ids for one tree; shared by a subtree that leaves so its ids stay unique.
final class DOMIDAllocator {
    private var next: UInt32 = 0

    /// The next id's number, from 1.
    func allocate() -> UInt32 {
        next += 1
        return next
    }
}

/// Element names longer than eight bytes (custom elements, mostly), numbered as they are first seen: a view keeps the
/// number. An app has few, and they are never forgotten.
private enum LongTagNames {
    private static let table = Locked<(names: [String], numbers: [String: Int])>(([], [:]))

    static func number(for name: String) -> Int {
        table.withLock { table in
            if let number = table.numbers[name] { return number }
            table.names.append(name)
            table.numbers[name] = table.names.count - 1
            return table.names.count - 1
        }
    }

    static func name(_ number: Int) -> String {
        table.withLock { $0.names[number] }
    }
}
