/// What rendering needs to know about the page a view tree is shown on, supplied by the layer that serves the page.
///
/// A form that posts (a ``Button``'s, a ``Form``) posts its action to `actionPath(actionName)` and carries
/// `hiddenFormFields`, in order, as hidden inputs right after its start tag: whatever the page's server needs back
/// with every post (a screen layer's request-forgery token, say). ViewKit gives them no meaning. The default
/// context renders actions as fragment links and no hidden fields, which suits static rendering and tests.
///
/// ```swift
/// let context = RenderContext(actionPath: { "/actions/" + $0 }, hiddenFormFields: [("token", token)])
/// let page = root.renderHTML(context: context)
/// ```
public struct RenderContext: Sendable {
    /// Maps an action name to the URL path its form posts to.
    public var actionPath: @Sendable (String) -> String
    /// The hidden fields every form that posts carries, in order: `<input type="hidden" name="…" value="…">` each.
    public var hiddenFormFields: [(name: String, value: String)]

    /// Creates a context; the defaults suit tests and static rendering.
    public init(
        actionPath: @escaping @Sendable (String) -> String = { "#" + $0 },
        hiddenFormFields: [(name: String, value: String)] = []
    ) {
        self.actionPath = actionPath
        self.hiddenFormFields = hiddenFormFields
    }

    /// Writes the hidden fields, escaped, as a form that posts carries them after its start tag.
    func writeHiddenFormFields(into html: inout HTMLBuffer) {
        for field in hiddenFormFields {
            html.appendStatic("<input type=\"hidden\"")
            html.appendAttribute(static: "name", field.name)
            html.appendAttribute(static: "value", field.value)
            html.append(UInt8(ascii: ">"))
        }
    }
}
