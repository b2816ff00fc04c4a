import Primitives
internal import Reactive

/// A view's own attributes in order, with the same already rendered as ` name="value"` bytes, so a
/// view made from a template writes its template attributes as one copy. Immutable: all views a
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
    let startTag: TemplateStartTag?
    private let isTemplate: Bool
    private let lock = InlineLock()
    /// The changes made from this template's list lately, at most ``recentChangeLimit``; the oldest is replaced first
    /// (`nextReplaced`).
    private var recentChanges: [Change] = []
    private var nextReplaced = 0
    /// How many changes a template's list remembers: as many as a few cells of one prototype make with different
    /// values (a strip's links), compared in a short walk.
    static let recentChangeLimit = 8

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
        rendered = Self.render(items)
        startTag = nil
    }

    /// A template element's list (possibly empty), holding the element's compiled tags.
    init(template items: [(name: String, value: String)], startTag: (_ rendered: [UInt8]) -> TemplateStartTag) {
        self.items = items
        isTemplate = true
        outletName = items.first { $0.name == "data-outlet" }?.value
        rendered = Self.render(items)
        self.startTag = startTag(rendered)
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
        return lock.withLock { recentChanges.first { $0.name == name && $0.value == value }?.list }
    }

    /// The list this one becomes with `name` set to `value` (removed when nil), which is `items`: the one made for
    /// the same change lately, or a new one.
    func changing(_ name: String, to value: String?, giving items: [(name: String, value: String)]) -> AttributeList {
        guard isTemplate else { return AttributeList(items) }
        if let remembered = rememberedChange(name, to: value) { return remembered }
        let list = AttributeList(items)
        let change = Change(name: name, value: value, list: list)
        lock.withLock {
            if recentChanges.count < Self.recentChangeLimit {
                recentChanges.append(change)
            } else {
                recentChanges[nextReplaced] = change
                nextReplaced = (nextReplaced + 1) % Self.recentChangeLimit
            }
        }
        return list
    }
}
