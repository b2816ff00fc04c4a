/// A view that shows a line or paragraph of text (like `UILabel`), escaped on output.
///
/// Its element is a `<span>` unless a template or initializer says otherwise (`h1`, `p`, `title`…).
/// Subviews are not rendered: a label's content is its text.
///
/// ```swift
/// let title = Label(text: "Heat", tagName: "h1")
/// title.text = "Heat (1995)"   // marks the label dirty; a patch replaces just this element
/// ```
public final class Label: View {
    /// The text shown; setting a different value marks the label dirty.
    // `@exclusivity(unchecked)`: read on every render and binder update; like `View`'s storage,
    // confined to the screen's scheduler and never held `inout` across a call into the tree.
    @exclusivity(unchecked) public var text = "" {
        didSet { if text != oldValue { setNeedsRender() } }
    }

    /// Creates an empty label rendered as `<tagName>`.
    public required init(tagName: String = "span") {
        super.init(tagName: tagName)
    }

    /// Creates a label showing `text`.
    public convenience init(text: String, tagName: String = "span") {
        self.init(tagName: tagName)
        self.text = text
    }

    /// Writes the escaped text.
    public override func renderContent(into html: inout HTMLBuffer, context: RenderContext) {
        html.appendText(text)
    }
}

/// Text between elements, as in static template markup; renders escaped text and no element.
///
/// A text node has no element of its own, so it is never the target of a patch: changing it marks
/// its superview dirty instead.
public final class TextNode: View {
    /// The text; setting a different value marks the enclosing element dirty.
    // `@exclusivity(unchecked)`: as `Label.text`.
    @exclusivity(unchecked) public var text = "" {
        didSet { if text != oldValue { superview?.setNeedsRender() } }
    }

    /// Whether the text is written unescaped; only templates set it, for `<script>` and `<style>`.
    @exclusivity(unchecked) var isRawText = false

    /// Creates an empty text node.
    public required init(tagName: String = "#text") {
        super.init(textNode: ())
    }

    /// Creates a text node holding `text`.
    public convenience init(text: String) {
        self.init()
        self.text = text
    }

    /// Writes the text alone.
    public override func render(into html: inout HTMLBuffer, context: RenderContext) {
        if isRawText { html.appendRaw(text) } else { html.appendText(text) }
    }
}
