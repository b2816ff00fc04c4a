/// A view that lays its subviews out in a row or a column (like `UIStackView`).
///
/// Layout is CSS's job: the stack renders the classes `stack`, `stack-vertical` or
/// `stack-horizontal`, and `stack-spacing-<n>` for its spacing, for the stylesheet to honour.
///
/// ```swift
/// let stack = StackView()
/// stack.axis = .horizontal
/// stack.spacing = 8   // <div class="stack stack-horizontal stack-spacing-8">
/// ```
public final class StackView: View {
    /// The direction subviews are laid out in.
    public enum Axis: String, Sendable {
        /// Side by side.
        case horizontal
        /// One above the other.
        case vertical
    }

    /// The layout direction; vertical by default.
    public var axis = Axis.vertical {
        didSet { if axis != oldValue { setNeedsRender() } }
    }

    /// The gap between subviews, in CSS pixels; rendered as the class `stack-spacing-<n>`.
    public var spacing = 0 {
        didSet { if spacing != oldValue { setNeedsRender() } }
    }

    /// Creates a vertical stack rendered as `<tagName>`.
    public required init(tagName: String = "div") {
        super.init(tagName: tagName)
    }

    /// The attributes of a stack's layout.
    public override class var templateAttributes: Set<String> { ["data-axis", "data-spacing"] }

    /// `data-axis` (`horizontal` or `vertical`, the default) is the ``axis``, `data-spacing` the ``spacing``.
    public override class func templateConfiguration(from element: TemplateElement) throws(TemplateError)
        -> TemplateConfiguration?
    {
        guard let axis = Axis(rawValue: element.attribute("data-axis") ?? "vertical") else {
            throw element.error("data-axis must be horizontal or vertical")
        }
        let spacing = Int(element.attribute("data-spacing") ?? "0") ?? 0
        return TemplateConfiguration(StackView.self) { stack in
            stack.axis = axis
            stack.spacing = spacing
        }
    }

    /// Writes the element with the layout classes and the subviews.
    public override func render(into html: inout HTMLBuffer, context: RenderContext) {
        writeStartTag(into: &html, extraClasses: ["stack", "stack-" + axis.rawValue, "stack-spacing-\(spacing)"])
        renderContent(into: &html, context: context)
        writeEndTag(into: &html)
    }
}
