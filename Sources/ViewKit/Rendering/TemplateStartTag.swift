/// A template element's tags split once, when templates load, into static bytes around the one dynamic slot of a
/// start tag, the element's id (a view's position in its tree decides the generated one): `<tag` before it; after it
/// the class, the template's attributes, `role`, `aria-label`, `hidden` and `>`. (A name of up to eight bytes is
/// written from the view's packed name instead of `open`, and so is every such end tag: ``View/writeEndTag(into:)``.)
///
/// Contract: a view made from the element writes its start tag as `open`, its id, `rest` (``View/writeStartTag``)
/// while the state those bytes were made from is still its own: the template's attribute list (the list holds this
/// tag, and a changed attribute gives the view another list), the template's class list (the same storage), its
/// `hidden`, and the template's shared rare state or none (its `role` and `aria-label`). Any change of those renders
/// the start tag attribute by attribute, as before; the bytes are the same either way (`rest` is written by the
/// same `HTMLBuffer` calls in the same order as ``View/writeAttributes``). The bytes hold the template's element
/// name: a kind that renders another element (a button with an action is a `<form>`) has another `packedTag`, and
/// its views never use them.
final class TemplateStartTag: Sendable {
    /// `<` and the element's name.
    let open: [UInt8]
    /// What follows the id: ` class="…"`, the attributes, ` role="…"`, ` aria-label="…"`, ` hidden`, then `>`.
    let rest: [UInt8]
    /// The class list the bytes were made with (its storage is what a view's is compared with).
    let classList: ClassList
    /// Whether the bytes carry `hidden`.
    let isHidden: Bool
    /// The element's name packed as ``View/packedTag`` packs it: a view whose own differs renders another element.
    let packedTag: UInt64
    /// The markup a label of this element last rendered for a patch (``labelMarkup(id:text:render:)``), which the
    /// labels of other screens showing the same take instead of rendering it.
    let lastLabelMarkup = LabelPatchMarkup.Slot(nil)

    /// Compiles the tags of an element named `tagName` (a valid element name) with these template values;
    /// `attributes` are the attribute list's rendered bytes.
    init(
        tagName: String, classList: ClassList, attributes: [UInt8], accessibilityRole: String?,
        accessibilityLabel: String?, isHidden: Bool
    ) {
        self.classList = classList
        self.isHidden = isHidden
        let kind = View.classifyName(tagName)
        if let packed = kind.packed {
            packedTag = packed | (kind.isVoidElement ? View.voidElementBit : 0)
        } else {
            packedTag = UInt64(LongTagNames.number(for: tagName)) << 8
        }
        var html = HTMLBuffer(capacity: 16)
        html.append(UInt8(ascii: "<"))
        html.appendRaw(tagName)
        open = html.bytes
        html = HTMLBuffer(capacity: 64 + attributes.count)
        // The order of `View.writeLeadingAttributes` (after the id) and `View.writeTrailingAttributes`.
        if !classList.isEmpty { classList.writeAttribute(into: &html) }
        html.append(attributes)
        if let accessibilityRole { html.appendAttribute(static: "role", accessibilityRole) }
        if let accessibilityLabel { html.appendAttribute(static: "aria-label", accessibilityLabel) }
        if isHidden { html.appendAttribute(static: "hidden", "") }
        html.append(UInt8(ascii: ">"))
        rest = html.bytes
    }
}
