import Primitives
internal import Reactive

/// A view's element name, class list and own attributes in order, with the attributes already rendered as
/// ` name="value"` bytes, so a view made from a template writes its template attributes as one copy. The name and the
/// class list live here rather than in each view (two words of every view; Benchmarks/History/51-screen-memory-6.md):
/// every view has a list, a template node's or, for a view made in code, the one list of its element name
/// (``plain(packedTag:)``). Immutable: all views a
/// template node makes share one; a view that changes an attribute gets another, shared with the views of that
/// node that made the same change lately (every screen setting its `theme-color` to the same value, say; every
/// screen of a movie linking its "More like this" cells to the same few movies). Only a template's list remembers its
/// changes, the last ``recentChangeLimit`` of them: were the lists made from it to remember theirs, a view changing
/// an attribute again and again would leave a chain of every list it had. Receipt for the memo shared by every
/// screen: `AttributeList's last change` in Benchmarks/History/26-receipts.md; for remembering a few changes rather
/// than the last, Benchmarks/History/37 (a cell prototype's link changes to a different movie for each cell).
///
/// `@unchecked Sendable`: `items` and `rendered` never change, and `recentChanges` and `nextReplaced` are read and
/// written only under `lock`.
final class AttributeList: @unchecked Sendable {
    /// The attributes, in the order they were first set.
    let items: [(name: String, value: String)]
    /// What `HTMLBuffer.appendAttribute` writes for each item, in order.
    let rendered: [UInt8]
    /// The value of the first `data-outlet` item: looked for once per list, not on every outlet lookup (a binder
    /// reads its outlets on every change of its screen).
    let outletName: String?
    /// A template element's list only: the element's start and end tags compiled once (see ``TemplateStartTag``).
    /// Only the template's list carries it, so a view whose list does has the template's name and class list.
    let startTag: TemplateStartTag?
    /// The element's name, packed as ``View/packedTag`` holds it.
    let packedTag: UInt64
    /// The element's class names (a view's ``View/classList``).
    let classList: ClassList
    private let isTemplate: Bool
    /// `outletName`'s length in UTF-8 (0 without one), or `UInt16.max` for that length or more: what an outlet
    /// look-up compares before it compares a name (``outletNameHasLength(_:)``).
    private let outletNameLength: UInt16
    private let lock = InlineLock()
    /// The changes made from this template's list lately, at most ``recentChangeLimit``; the oldest is replaced first
    /// (`nextReplaced`).
    private var recentChanges: [Change] = []
    private var nextReplaced = 0
    /// A template's list only: its copy named otherwise (``withPackedTag(_:)``), read and written under `lock`.
    private var renamed: AttributeList?
    /// How many changes a template's list remembers: as many as a few cells of one prototype make with different
    /// values (a strip's links), compared in a short walk.
    static let recentChangeLimit = 8

    /// A change of one attribute, or of what is remembered as one (the class list, a collection's layout: under
    /// names no attribute has), and the list it made.
    private final class Change: Sendable {
        let name: String
        let value: String?
        let list: AttributeList
        /// Whether `name` is an attribute's, checked (``View/setAttribute(_:_:)``): such a change is found by
        /// ``rememberedAttributeChange(_:to:)`` before the name is checked again.
        let isAttribute: Bool

        init(name: String, value: String?, list: AttributeList, isAttribute: Bool) {
            self.name = name
            self.value = value
            self.list = list
            self.isAttribute = isAttribute
        }
    }

    init(
        _ items: [(name: String, value: String)], packedTag: UInt64, classList: ClassList = ClassList(),
        isTemplate: Bool = false
    ) {
        self.items = items
        self.isTemplate = isTemplate
        self.packedTag = packedTag
        self.classList = classList
        outletName = items.first { $0.name == "data-outlet" }?.value
        outletNameLength = Self.length(of: outletName)
        rendered = Self.render(items)
        startTag = nil
    }

    /// A template element's list (possibly empty), holding the element's compiled tags, its name (theirs) and its
    /// class list.
    init(
        template items: [(name: String, value: String)], classList: ClassList,
        startTag: (_ rendered: [UInt8]) -> TemplateStartTag
    ) {
        self.items = items
        isTemplate = true
        self.classList = classList
        outletName = items.first { $0.name == "data-outlet" }?.value
        outletNameLength = Self.length(of: outletName)
        rendered = Self.render(items)
        let tag = startTag(rendered)
        self.startTag = tag
        packedTag = tag.packedTag
    }

    /// `list`'s attributes with another name or class list, and no compiled tags; remembering its changes when
    /// `isTemplate` (a list shared by every view of a template element, as a template's is).
    private init(_ list: AttributeList, packedTag: UInt64, classList: ClassList, isTemplate: Bool) {
        items = list.items
        rendered = list.rendered
        outletName = list.outletName
        outletNameLength = list.outletNameLength
        startTag = nil
        self.isTemplate = isTemplate
        self.packedTag = packedTag
        self.classList = classList
    }

    /// Whether `outletName` is `length` bytes long in UTF-8: an outlet look-up compares the name it looks for with the
    /// views' names only when their lengths match (a view's is stored, the name's worked out once a look-up), so the
    /// usual mismatch costs no call into the string comparison.
    @inline(__always)
    func outletNameHasLength(_ length: Int) -> Bool {
        outletNameLength == UInt16.max ? outletName?.utf8.count == length : Int(outletNameLength) == length
    }

    private static func length(of name: String?) -> UInt16 { UInt16(clamping: name?.utf8.count ?? 0) }

    /// The list of views made in code named `packedTag`: no attributes, no classes. One for each name, for the
    /// process's life (an app has few names), so such a view keeps none of its own until it changes one.
    static func plain(packedTag: UInt64) -> AttributeList {
        // The names views are made with most (a template's views of other kinds than plain views and labels are made
        // by their kind's initializer with the element's name first) are found by a switch over their packed bytes,
        // without the lock or a hash (``commonNames``, in order; the void ones with the void bit).
        let index: Int
        switch packedTag {
        case 0x76_6964: index = 0  // div
        case 0x6E61_7073: index = 1  // span
        case 0x6D72_6F66: index = 2  // form
        case 0x6C75: index = 3  // ul
        case 0x6C6F: index = 4  // ol
        case 0x696C: index = 5  // li
        case 0x8000_0000_0067_6D69: index = 6  // img
        case 0x6E_6F69_7463_6573: index = 7  // section
        case 0x65_6C63_6974_7261: index = 8  // article
        case 0x7265_6461_6568: index = 9  // header
        case 0x7265_746F_6F66: index = 10  // footer
        case 0x76_616E: index = 11  // nav
        case 0x6E69_616D: index = 12  // main
        case 0x65_6469_7361: index = 13  // aside
        case 0x61: index = 14  // a
        case 0x70: index = 15  // p
        case 0x3168: index = 16  // h1
        case 0x3268: index = 17  // h2
        case 0x3368: index = 18  // h3
        case 0x6E6F_7474_7562: index = 19  // button
        case 0x6C_6562_616C: index = 20  // label
        case 0x8000_0074_7570_6E69: index = 21  // input
        case 0x676E_6F72_7473: index = 22  // strong
        case 0x656D_6974: index = 23  // time
        case 0x6572_7567_6966: index = 24  // figure
        case 0x65_6C74_6974: index = 25  // title
        default:
            return plainLists.withLock { lists in
                if let list = lists[packedTag] { return list }
                let list = AttributeList([], packedTag: packedTag)
                lists[packedTag] = list
                return list
            }
        }
        return Self.commonPlainLists[index]
    }

    /// The element names ``plain(packedTag:)`` finds without the lock, in the order of its switch.
    static let commonNames = [
        "div", "span", "form", "ul", "ol", "li", "img", "section", "article", "header", "footer", "nav", "main",
        "aside", "a", "p", "h1", "h2", "h3", "button", "label", "input", "strong", "time", "figure", "title",
    ]

    /// The plain lists of ``commonNames``, made once and never changed: read without a lock.
    private static let commonPlainLists: [AttributeList] = commonNames.map { name in
        let kind = View.classifyName(name)
        return AttributeList([], packedTag: kind.packed! | (kind.isVoidElement ? View.voidElementBit : 0))
    }
    private static let plainLists = Locked<[UInt64: AttributeList]>([:])
    /// The list of every text node.
    static let textNode = AttributeList([], packedTag: View.textNodeTag)

    /// This list with the class list `classList`: from a template's list, the one made for the same classes lately (a
    /// label every screen marks alike), or a new one.
    func withClassList(_ classList: ClassList) -> AttributeList {
        guard isTemplate else {
            return AttributeList(self, packedTag: packedTag, classList: classList, isTemplate: false)
        }
        return remembering(Self.classChangeName, to: classList.value) {
            AttributeList(self, packedTag: packedTag, classList: classList, isTemplate: false)
        }
    }

    /// This list named `packedTag` (a kind that renders another element than its template's: a button is a `<form>`):
    /// from a template's list, one list (a template element's views are of one kind), remembering changes as the
    /// template's does.
    @inline(__always)
    func withPackedTag(_ packedTag: UInt64) -> AttributeList {
        packedTag == self.packedTag ? self : renamed(to: packedTag)
    }

    private func renamed(to packedTag: UInt64) -> AttributeList {
        guard isTemplate else {
            return AttributeList(self, packedTag: packedTag, classList: classList, isTemplate: false)
        }
        return lock.withLock {
            if let renamed, renamed.packedTag == packedTag { return renamed }
            let list = AttributeList(self, packedTag: packedTag, classList: classList, isTemplate: true)
            renamed = list
            return list
        }
    }

    /// The name a class list's changes are remembered under: not an attribute name (a space).
    private static let classChangeName = " class"

    /// The list a change `name` to `value` made from this template's list lately, or the one `make` makes now,
    /// remembered.
    private func remembering(_ name: String, to value: String, make: () -> AttributeList) -> AttributeList {
        if let remembered = rememberedChange(name, to: value) { return remembered }
        let list = make()
        remember(Change(name: name, value: value, list: list, isAttribute: false))
        return list
    }

    private func remember(_ change: Change) {
        lock.withLock {
            // The list taken out, changed, and put back whole: an access to `recentChanges` that spanned the append
            // or the replacement (either may release a list, and with it run a deinitializer) would need a run-time
            // exclusivity check on every access to it, the look-ups' too (Benchmarks/History/69-exclusivity-by-shape-2.md).
            var changes = recentChanges
            recentChanges = []
            if changes.count < Self.recentChangeLimit {
                changes.append(change)
            } else {
                changes[nextReplaced] = change
                nextReplaced = (nextReplaced + 1) % Self.recentChangeLimit
            }
            recentChanges = changes
        }
    }

    private static func render(_ items: [(name: String, value: String)]) -> [UInt8] {
        var html = HTMLBuffer(capacity: 64)
        for item in items { html.appendAttribute(item.name, item.value) }
        return html.bytes
    }

    /// The list a change of `name` to `value` made from this template's list lately, or nil (none made, or this is
    /// not a template's list): what ``changing(_:to:giving:)`` answers without its items, for a caller that can skip
    /// working them out.
    func rememberedChange(_ name: String, to value: String?) -> AttributeList? {
        guard isTemplate else { return nil }
        // The value compared by its bytes: a value canonically equivalent in other code points renders other bytes.
        return lock.withLock {
            recentChanges.first { $0.name.isSameName(as: name) && $0.value.hasSameUTF8(as: value) }?.list
        }
    }

    /// ``rememberedChange(_:to:)`` of an attribute's change only (made with `isAttribute`): its name was checked when
    /// the change was made, so a caller may take the list before checking `name`; a name no attribute has finds
    /// nothing.
    func rememberedAttributeChange(_ name: String, to value: String?) -> AttributeList? {
        guard isTemplate else { return nil }
        return lock.withLock {
            recentChanges.first {
                $0.isAttribute && $0.name.isSameName(as: name) && $0.value.hasSameUTF8(as: value)
            }?.list
        }
    }

    /// The list this one becomes with `name` set to `value` (removed when nil), which is `items`: the one made for
    /// the same change lately, or a new one. `isAttribute`: `name` is an attribute's, checked (not the name a
    /// change of several is remembered under).
    func changing(
        _ name: String, to value: String?, giving items: [(name: String, value: String)], isAttribute: Bool
    ) -> AttributeList {
        guard isTemplate else { return AttributeList(items, packedTag: packedTag, classList: classList) }
        if let remembered = rememberedChange(name, to: value) { return remembered }
        let list = AttributeList(items, packedTag: packedTag, classList: classList)
        remember(Change(name: name, value: value, list: list, isAttribute: isAttribute))
        return list
    }
}
