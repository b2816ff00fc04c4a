/// What rendering needs to know about the page a view tree is shown on.
///
/// A button posts its action to `actionPath(actionName)` with `csrfToken` in a hidden field; the
/// screen session supplies both. The default context renders actions as fragment links and an
/// empty token, which is what snapshot tests want.
///
/// ```swift
/// let context = RenderContext(actionPath: { "/screens/\(sid)/actions/" + $0 }, csrfToken: token)
/// let page = root.renderHTML(context: context)
/// ```
public struct RenderContext: Sendable {
    /// Maps an action name to the URL path its form posts to.
    public var actionPath: @Sendable (String) -> String
    /// The token every form carries in its hidden `csrf` field.
    public var csrfToken: String

    /// Creates a context; the defaults suit tests and static rendering.
    public init(actionPath: @escaping @Sendable (String) -> String = { "#" + $0 }, csrfToken: String = "") {
        self.actionPath = actionPath
        self.csrfToken = csrfToken
    }
}
