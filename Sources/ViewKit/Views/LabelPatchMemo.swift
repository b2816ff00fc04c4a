import Primitives

/// The markup of a template's label last rendered for a patch, kept with the label's template element (its
/// ``TemplateStartTag``), so that the labels of other screens that render the same bytes share it instead of rendering
/// it each.
///
/// When a movie changes, every open screen of it sets the same text on the same label of the same template and
/// renders that label for its patch: the same start tag (compiled with the template element), the same generated id
/// (screens of one template number their views alike) and the same text. A label's markup is its start tag, its text
/// and its end tag, and nothing else: while the label's start tag is still its template's
/// (``View/unchangedTemplateStartTag``), the element, the id and the text decide every byte. So the element keeps its
/// last label rendering with the id and the text, and a label of it that asks with the same id and text (the same
/// UTF-8 bytes) gets those bytes; any other renders anew and takes their place. The patch encoding that follows
/// (Screenplay's `PatchEncoding`) then finds the bytes it encoded last without reading them. Kept with the element, one
/// entry under its own lock, not for the process: receipt in step 1 of Benchmarks/History/59-fan-out-screens-2.md.
struct LabelPatchMarkup: Sendable {
    let id: UInt32
    /// The generated id as the patch names it (``View/generatedID(_:)`` of `id`), made with the entry: the labels
    /// that share the bytes share it too, instead of each making the string for its patch.
    let idString: String
    let text: String
    let html: [UInt8]

    /// Where a template element keeps it, under a lock: the screens of a fan-out render on several threads.
    typealias Slot = Locked<LabelPatchMarkup?>
}

extension TemplateStartTag {
    /// The markup of a label of this element with generated id `id` and `text`, with the id's string: the last
    /// rendering's when it was of the same id and text, else `render`'s, kept in its place.
    func labelMarkup(id: UInt32, text: String, render: () -> [UInt8]) -> (id: String, html: [UInt8]) {
        let kept = lastLabelMarkup.withLock { last -> (id: String, html: [UInt8])? in
            guard let last, last.id == id, last.text.hasSameUTF8(as: text) else { return nil }
            return (last.idString, last.html)
        }
        if let kept { return kept }
        let markup = LabelPatchMarkup(id: id, idString: View.generatedID(id), text: text, html: render())
        lastLabelMarkup.withLock { $0 = markup }
        return (markup.idString, markup.html)
    }
}

extension View {
    /// This view's ``domID`` and markup for a patch (``renderHTML(context:)``), its marks cleared: a label's both taken
    /// from its template element when another label of it rendered the same bytes last (``LabelPatchMarkup``).
    ///
    /// Only a ``Label`` itself (the class is final, so no kind renders it otherwise), with a generated id it already
    /// rendered (the first rendering gives a static view its id), and with its template's start tag: the bytes are
    /// then its element's, its id's and its text's, whatever the context, which is made only if the label renders.
    func renderForPatch(
        context: inout RenderContext?, making makeContext: () -> RenderContext
    ) -> (id: String, html: [UInt8]) {
        guard type(of: self) == Label.self, storedID != 0, !isStaticMarkupOnPage, explicitID == nil,
            let tag = unchangedTemplateStartTag, let label = self as? Label
        else {
            // The id first: a view without one yet takes the tree's next before its subviews take theirs.
            let id = domID
            return (id, renderHTML(context: context.made(by: makeContext)))
        }
        let patch = tag.labelMarkup(id: storedID, text: label.text) {
            renderHTML(context: context.made(by: makeContext))
        }
        clearMarks()
        return patch
    }
}
