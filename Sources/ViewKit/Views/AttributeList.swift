import Primitives
internal import Reactive

/// A view's own attributes in order, with the same already rendered as ` name="value"` bytes, so a
/// view made from a template writes its template attributes as one copy. Immutable: all views a
/// template node makes share one; a view that changes an attribute gets another, shared with the views of that
/// node that made the same change last (every screen setting its `theme-color` to the same value, say). Only a
/// template's list remembers its last change: were the lists made from it to remember theirs, a view changing an
/// attribute again and again would leave a chain of every list it had. Receipt for the memo shared by every screen:
/// `AttributeList's last change` in Benchmarks/History/26-receipts.md.
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
    /// A template element's list only: the element's start and end tags compiled once (see ``TemplateStartTag``).
    let startTag: TemplateStartTag?
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
