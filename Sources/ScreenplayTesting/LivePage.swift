/// What a test needs from a served screen page: its event stream, CSRF token and action paths.
///
/// Reads the markup the runtime renders (`data-events` on `<html>`, the action forms); it is not an HTML parser.
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

    /// The event stream path (`/screens/{sid}/events`).
    public var eventsPath: String? { attribute("data-events") }

    /// The screen session id.
    public var sessionID: String? {
        eventsPath.flatMap { $0.split(separator: "/").dropFirst().first.map(String.init) }
    }

    /// The screen's id on a shared stream (wire protocol v2: `data-screen`).
    public var screenID: String? { attribute("data-screen") }

    /// The page's URL, as the screen knows it (`data-screen-url`).
    public var screenURL: String? { attribute("data-screen-url") }

    /// The id of the newest event when the page was rendered.
    public var lastEventID: String? { attribute("data-last-event-id") }

    /// The CSRF token of the page's action forms (and of its attach requests: `data-csrf`).
    public var csrfToken: String? {
        if let token = attribute("data-csrf") { return token }
        guard let range = html.range(of: "name=\"csrf\" value=\"") else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }

    /// The form action path of the action named `action`.
    public func actionPath(_ action: String) -> String? {
        guard let sessionID else { return nil }
        let path = "/screens/\(sessionID)/actions/\(action)"
        return html.contains("action=\"\(path)\"") ? path : nil
    }

    /// Where the page posts its fields' input events (`/screens/{sid}/input`).
    public var inputPath: String? { sessionID.map { "/screens/\($0)/input" } }

    /// The value of the first `name="…"` attribute on the page.
    public func attribute(_ name: String) -> String? {
        guard let range = html.range(of: " \(name)=\"") else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }
}
