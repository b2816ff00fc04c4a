// MARK: - Rendering

extension View {
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
        let bytes = renderLastHTML(context: context, addingToStartTag: attributes)
        clearMarks()
        return bytes
    }

    /// The bytes ``renderHTML(context:addingToStartTag:)`` makes, with the subtree's dirty marks and recorded changes
    /// left as they were: for the last render of a tree that is dropped right after (a page rendered without a live
    /// screen), where clearing them would walk every changed view for nothing (Benchmarks/History/44). A tree rendered
    /// this way and kept would send its changes again in the next patch.
    package func renderLastHTML(context: RenderContext, addingToStartTag attributes: [(String, String)]) -> [UInt8] {
        checkConfinement("Rendering a view")
        return HTMLBuffer.withReusedStorage(capacity: 1024) { html in
            if packedTag == Self.htmlTag { html.appendStatic("<!DOCTYPE html>") }
            writeStartTag(into: &html, extraAttributes: attributes)
            if !isVoidElement {
                renderContent(into: &html, context: context)
                writeEndTag(into: &html)
            }
            return html.bytes
        }
    }
    /// Writes the subviews in order, with the template's static children that are still markup in their places.
    public final func renderSubviews(into html: inout HTMLBuffer, context: RenderContext) {
        // Each subview renders named in `html` with this tree's DOM id allocator, so the ids it and its subtree are
        // given need no walk to the root each: the allocator of the view rendering this one when `html` names it (the
        // walk's usual case: nothing to retain), found from this view otherwise (a render's start, or a subview a
        // custom render rendered itself). The names found are put back when the subviews are done.
        let outerView = html.idScopeView
        if outerView == ObjectIdentifier(self) {
            renderSubviewsNamed(into: &html, context: context)
        } else {
            let outerAllocator = html.idAllocator
            html.idAllocator = treeAllocator
            renderSubviewsNamed(into: &html, context: context)
            html.idAllocator = outerAllocator
        }
        html.idScopeView = outerView
    }

    /// The subviews in order, each named in `html` while it renders (see ``renderSubviews(into:context:)``).
    private func renderSubviewsNamed(into html: inout HTMLBuffer, context: RenderContext) {
        // The list is read once and switched on once (`forEach`, `subview(at:)`): its iterator copied the list's
        // storage into two fields and retained it again at each step (Benchmarks/History/47).
        let subviews = liveSubviews
        guard let content = rare?.staticContent else {
            subviews.forEach {
                html.idScopeView = ObjectIdentifier($0)
                $0.render(into: &html, context: context)
            }
            return
        }
        var next = 0
        for slot in content.slots {
            switch slot {
            case .subview:
                if let subview = subviews.subview(at: next) {
                    html.idScopeView = ObjectIdentifier(subview)
                    subview.render(into: &html, context: context)
                }
                next += 1
            case .markup(let run):
                html.append(content.markup[run])
            }
        }
    }

    /// Writes this subtree as markup without ids: the shared markup of a template's static children.
    final func renderStaticMarkup(into html: inout HTMLBuffer) {
        if packedTag == Self.textNodeTag { return render(into: &html, context: RenderContext()) }
        writeStaticStartTag(into: &html)
        if isVoidElement { return }
        if let content = rare?.staticContent {
            // A static element's children are all static: one run of markup already rendered.
            for bytes in content.markup { html.append(bytes) }
        } else {
            for view in liveSubviews { view.renderStaticMarkup(into: &html) }
        }
        writeEndTag(into: &html)
    }

    /// Writes this view's start tag without its id: static markup's, or a container's kept as markup.
    final func writeStaticStartTag(into html: inout HTMLBuffer) {
        appendStartTagOpening(to: &html)
        writeAttributes(into: &html, includeID: false, extraClasses: [], extraAttributes: [])
        html.append(UInt8(ascii: ">"))
    }

    /// Writes `<tag id="…" class="…" …>` with this view's attributes, plus `extraClasses` after the
    /// class list and `extraAttributes` after the other attributes.
    public func writeStartTag(
        into html: inout HTMLBuffer, extraClasses: [String] = [], extraAttributes: [(String, String)] = []
    ) {
        if extraClasses.isEmpty && extraAttributes.isEmpty, let tag = unchangedTemplateStartTag {
            // The statics compiled with the template around the one slot, the id; a name of up to eight bytes opens
            // the tag from `packedTag`, with no array to reach.
            if packedTag & 0xFF != 0 {
                let (name, count) = packedName
                // The whole tag with one reservation when its id is generated.
                if explicitID == nil {
                    return html.appendStartTag(
                        packedName: name, count: count, generatedID: renderedGeneratedID(in: html), rest: tag.rest)
                }
                html.appendStartTagOpening(packedName: name, count: count)
            } else {
                html.append(tag.open)
            }
            writeIDAttribute(into: &html)
            html.append(tag.rest)
            return
        }
        writeStartTagAttributeByAttribute(into: &html, extraClasses: extraClasses, extraAttributes: extraAttributes)
    }

    /// Writes the start tag from the view's state attribute by attribute: what ``writeStartTag(into:extraClasses:
    /// extraAttributes:)`` does for a view whose state is no longer its template's, and the same bytes as the
    /// compiled tag for one whose state is.
    final func writeStartTagAttributeByAttribute(
        into html: inout HTMLBuffer, extraClasses: [String] = [], extraAttributes: [(String, String)] = []
    ) {
        appendStartTagOpening(to: &html)
        writeAttributes(into: &html, includeID: true, extraClasses: extraClasses, extraAttributes: extraAttributes)
        html.append(UInt8(ascii: ">"))
    }

    /// The start tag compiled with this view's template element, while the view's class list, attributes, `hidden`,
    /// `role` and `aria-label` are still the ones it was compiled with (see ``TemplateStartTag``); nil otherwise.
    final var unchangedTemplateStartTag: TemplateStartTag? {
        guard let tag = attributeList.startTag, isCurrent(tag) else { return nil }
        return tag
    }

    /// Whether `tag`, the start tag compiled with this view's attribute list, still holds this view's state. Only a
    /// template's list carries its tag, and a view keeps it only while its name and class list are the template's (a
    /// change of either gives the view another list): what is left to compare is `hidden` and the ARIA values.
    @inline(__always)
    private final func isCurrent(_ tag: TemplateStartTag) -> Bool {
        storedIsHidden == tag.isHidden && (rare?.isShared ?? true)
    }

    /// Writes `</tag>`.
    public func writeEndTag(into html: inout HTMLBuffer) {
        // A name of up to eight bytes is in `packedTag` itself: written from there, with no object to reach.
        if packedTag & 0xFF != 0 {
            let (name, count) = packedName
            return html.appendEndTag(packedName: name, count: count)
        }
        html.appendStatic("</")
        appendTagName(to: &html)
        html.append(UInt8(ascii: ">"))
    }

    /// Writes `<` and the tag's name: a packed name with the buffer's one reservation, as a compiled start tag opens.
    @inline(__always)
    private final func appendStartTagOpening(to html: inout HTMLBuffer) {
        if packedTag & 0xFF != 0 {
            let (name, count) = packedName
            return html.appendStartTagOpening(packedName: name, count: count)
        }
        html.append(UInt8(ascii: "<"))
        appendTagName(to: &html)
    }

    func appendTagName(to html: inout HTMLBuffer) {
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
        html.append(attributeList.rendered)
    }

    /// The attributes after a subclass's extra ones: `role`, `aria-label` and `hidden`.
    final func writeTrailingAttributes(into html: inout HTMLBuffer, includeHidden: Bool) {
        if let accessibilityRole { html.appendAttribute(static: "role", accessibilityRole) }
        if let accessibilityLabel { html.appendAttribute(static: "aria-label", accessibilityLabel) }
        if includeHidden && isHidden { html.appendAttribute(static: "hidden", "") }
    }
}
