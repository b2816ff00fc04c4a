package import ViewKit

extension HiddenFormFields {
    /// A screen's: its session's request-forgery `token` in the wire's `csrf` field (``ScreenWire/Field/csrf``),
    /// which an action's post must bring back. A screen makes them once and renders every patch with them.
    package static func screen(csrfToken token: String) -> HiddenFormFields {
        [(ScreenWire.Field.csrf.rawValue, token)]
    }
}

extension RenderContext {
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
        RenderContext(actionPath: actionPath, hiddenFormFields: .screen(csrfToken: token))
    }
}
