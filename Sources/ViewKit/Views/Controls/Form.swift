/// A form: fields and the buttons that submit them together (like a table of cells with a Save button).
///
/// Every `<form>` of a template that does not say `method="get"` is a `Form`. It renders as a form that posts, with
/// JavaScript or without, to its ``defaultAction`` (a template's `data-action`, else its first button's) with the
/// context's hidden form fields (``RenderContext/hiddenFormFields``); its buttons render as submit buttons with a `formaction` of their own action. A post carries
/// every field of the form: the screen sets the fields' values, marks them all touched (their errors show), and only
/// then fires the button's `rx.tap`, in the same turn.
///
/// ```html
/// <form data-outlet="editForm">
///   <input data-outlet="titleField" data-label="Title">
///   <button data-action="save">Save</button> <button data-action="cancel">Cancel</button>
/// </form>
/// ```
public final class Form: View {
    /// The action Enter in a field (or a post naming no button) runs: a template's `data-action`, else the first
    /// button's.
    public var defaultAction: String? {
        get { explicitDefaultAction ?? firstButtonAction(in: self) }
        set { explicitDefaultAction = newValue }
    }

    private var explicitDefaultAction: String? {
        didSet { if explicitDefaultAction != oldValue { setNeedsRender() } }
    }

    /// Creates an empty form; its element is always a `<form>`.
    public required init(tagName: String = "form") {
        super.init(tagName: "form")
    }

    /// The attributes a form's element gives it: its method and action are the framework's.
    public override class var templateAttributes: Set<String> { ["data-action", "method", "action"] }

    /// `data-action` is the ``defaultAction``.
    public override class func templateConfiguration(from element: TemplateElement) throws(TemplateError)
        -> TemplateConfiguration?
    {
        guard let defaultAction = element.attribute("data-action") else { return nil }
        return TemplateConfiguration(Form.self) { $0.defaultAction = defaultAction }
    }

    /// A `<form>` that does not say `method="get"`.
    override class func isInferred(from element: TemplateElement) -> Bool {
        element.tagName == "form" && element.attribute("method")?.lowercased() != "get"
    }

    /// Marks every field of the form touched: their errors show, as after a submit.
    public func markSubmitted() {
        for field in fields { field.markTouched() }
    }

    private func firstButtonAction(in view: View) -> String? {
        for subview in view.liveSubviews {
            if let button = subview as? Button, !button.actionName.isEmpty { return button.actionName }
            if subview is Form { continue }
            if let found = firstButtonAction(in: subview) { return found }
        }
        return nil
    }

    public override func render(into html: inout HTMLBuffer, context: RenderContext) {
        html.appendStatic("<form")
        writeLeadingAttributes(into: &html, includeID: true, extraClasses: [])
        html.appendStatic(" method=\"post\"")
        // A form with a file field posts the file with the other fields when JavaScript is off.
        if fields.contains(where: { $0 is FileField }) { html.appendStatic(" enctype=\"multipart/form-data\"") }
        html.appendAttribute(static: "action", context.actionPath(defaultAction ?? ""))
        writeTrailingAttributes(into: &html, includeHidden: true)
        html.append(UInt8(ascii: ">"))
        context.writeHiddenFormFields(into: &html)
        renderSubviews(into: &html, context: context)
        html.appendStatic("</form>")
    }
}

extension View {
    /// The form this view is in, if any.
    public var enclosingForm: Form? {
        // Up the parent links: a form is never a container kept as markup, so none is skipped.
        var current = parent
        while let view = current {
            if let form = view as? Form { return form }
            current = view.parent
        }
        return nil
    }

    /// The identity of the list row this view is in, as the row's button posts it (`?row=`), or `nil`.
    public var enclosingRowIdentity: String? {
        // Up the parent links: a list keeps its children as views, so a row's parent is its list.
        var child = self
        while let parent = child.parent {
            if let list = parent as? ListView { return list.identityDescription(ofRow: child) }
            child = parent
        }
        return nil
    }
}
