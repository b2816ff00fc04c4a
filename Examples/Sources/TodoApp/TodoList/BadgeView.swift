import Screenplay

/// A number with a caption, such as "1 left": a view kind of the app's own, registered in
/// ``TodoServer/registerViews(in:)`` and named in a template with `data-view="BadgeView"`.
///
/// It reads its template element as the framework's kinds read theirs (UIKit's `init(coder:)`): its text is the
/// caption, `data-tone` its colour scheme (rendered as the class `badge-<tone>`). A tone that is not a word stops the
/// app at start-up with the template's file, line and outlet.
///
/// ```html
/// <span data-view="BadgeView" data-outlet="leftBadge" data-tone="open">left</span>
/// ```
///
/// renders, once the binder has set `count` to 3, as `<span id="v9" class="badge badge-open"
/// data-outlet="leftBadge">3 left</span>`.
final class BadgeView: View {
    /// The number shown; setting another one renders the badge again.
    var count = 0 {
        didSet { if count != oldValue { setNeedsRender() } }
    }
    /// The words after the number: the element's text.
    private(set) var caption = ""
    /// The colour scheme, rendered as the class `badge-<tone>`: the element's `data-tone`.
    private(set) var tone = "info"

    /// `data-tone` is read here, so it is not rendered as the template gives it.
    override class var templateAttributes: Set<String> { ["data-tone"] }

    /// The element's content is the caption, not subviews.
    override class var templateContentIsSubviews: Bool { false }

    override class func templateConfiguration(from element: TemplateElement) throws(TemplateError)
        -> TemplateConfiguration?
    {
        let tone = element.attribute("data-tone") ?? "info"
        guard !tone.isEmpty, tone.allSatisfy({ $0.isLetter || $0 == "-" }) else {
            throw element.error("data-tone is a word such as open or info, not '\(tone)'")
        }
        let caption = element.text
        return TemplateConfiguration(BadgeView.self) { badge in
            badge.tone = tone
            badge.caption = caption
        }
    }

    override func render(into html: inout HTMLBuffer, context: RenderContext) {
        writeStartTag(into: &html, extraClasses: ["badge", "badge-" + tone])
        html.appendText(caption.isEmpty ? String(count) : "\(count) \(caption)")
        writeEndTag(into: &html)
    }
}
