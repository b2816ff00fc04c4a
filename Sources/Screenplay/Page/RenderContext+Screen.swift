package import ViewKit

extension RenderContext {
    /// The name of the hidden field that carries a screen session's request-forgery token in every form of its page.
    package static let requestForgeryTokenField = "csrf"

    /// A context for a screen's page: actions post to `actionPath`, and every form carries the screen session's
    /// request-forgery `token` in its hidden `csrf` field, which an action's post must bring back.
    ///
    /// The defaults (fragment links, an empty token) render a screen as a snapshot test shows it.
    ///
    /// ```swift
    /// let html = view.renderHTML(context: .screen(csrfToken: "test-token"))
    /// ```
    public static func screen(
        actionPath: @escaping @Sendable (String) -> String = { "#" + $0 }, csrfToken token: String = ""
    ) -> RenderContext {
        RenderContext(actionPath: actionPath, hiddenFormFields: [(requestForgeryTokenField, token)])
    }
}
