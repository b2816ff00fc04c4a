internal import Screenplay

/// What a test needs from a served screen page: its event stream, CSRF token and action paths.
///
/// Reads the markup the runtime renders (the wire's attributes on `<html>`, the action forms); it is not an HTML
/// parser.
public struct LivePage: Sendable {
    /// The page's HTML.
    public let html: String

    /// Wraps a page's HTML.
    public init(_ html: String) {
        self.html = html
    }

    /// Wraps a page response.
    public init(_ response: LiveResponse) {
        self.html = response.text
    }

    /// The screen session id (`data-screen`): what its stream attach, action and input posts name.
    public var sessionID: String? { attribute(ScreenWire.Attribute.screen.rawValue) }

    /// The screen's id on a shared stream: the session id.
    public var screenID: String? { sessionID }

    /// The page's URL, as the screen knows it (`data-screen-url`).
    public var screenURL: String? { attribute(ScreenWire.Attribute.screenURL.rawValue) }

    /// The digest of the page's render (`data-render`), which its attach names.
    public var renderDigest: String? { attribute(ScreenWire.Attribute.render.rawValue) }

    /// The id of the newest event when the page was rendered.
    public var lastEventID: String? { attribute(ScreenWire.Attribute.lastEventID.rawValue) }

    /// The CSRF token of the page's action forms (and of its attach requests: `data-csrf`).
    public var csrfToken: String? {
        if let token = attribute(ScreenWire.Attribute.csrf.rawValue) { return token }
        guard let range = html.range(of: "name=\"csrf\" value=\"") else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }

    /// The form action path of the action named `action`.
    public func actionPath(_ action: String) -> String? {
        guard let sessionID else { return nil }
        let path = ScreenWire.actionPath(screen: sessionID, action: action)
        return html.contains("action=\"\(path)\"") ? path : nil
    }

    /// Where the page posts its fields' input events (`/screens/{sid}/input`).
    public var inputPath: String? { sessionID.map { ScreenWire.inputPath(screen: $0) } }

    /// The value of the first `name="…"` attribute on the page.
    public func attribute(_ name: String) -> String? {
        guard let range = html.range(of: " \(name)=\"") else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }
}
