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
    public var text: String {
        get { storedText }
        set {
            let changed = !newValue.hasSameUTF8(as: storedText)
            storedText = newValue
            if changed { setNeedsRender() }
        }
    }
    /// `text`'s storage. A view's rendered properties (this, ``Button/title``, ``ImageView/imageURL``…) are computed over
    /// private storage that only their accessors read or assign whole: the setter reads the old value, compares
    /// outside any access, stores, then marks. Never held `inout` across a call (an in-place change of `text` goes
    /// through its get and set), no access to the storage is nested in another, and the optimizer proves every access
    /// exclusive when it compiles the module: the storage needs no check while the program runs
    /// (Benchmarks/History/65-exclusivity-by-shape.md). A public stored property with an observer, as these were, is
    /// checked at run time on every read and write, since code outside the module may hold it `inout`. Keep the
    /// shape: passing the storage `inout` to a function that compares brings the run-time check back.
    private var storedText = ""

    /// Creates an empty label rendered as `<tagName>`.
    public required init(tagName: String = "span") {
        super.init(tagName: tagName)
    }

    /// Creates a template's label from its element's list, with its compiled name (``Prototype``): what ``init(tagName:)`` makes
    /// of that name, without checking it again.
    override init(templateList: AttributeList) {
        super.init(templateList: templateList)
    }

    /// Creates a label showing `text`.
    public convenience init(text: String, tagName: String = "span") {
        self.init(tagName: tagName)
        // Stored without `text`'s setter: an initializer's assignment marks nothing, as a stored property's observers
        // do not run there.
        storedText = text
    }

    /// Writes the escaped text.
    public override func renderContent(into html: inout HTMLBuffer, context: RenderContext) {
        html.appendText(text)
    }

    // MARK: Template

    /// Elements whose text-only content makes an outlet a label.
    static let textTags: Set<String> = [
        "h1", "h2", "h3", "h4", "h5", "h6", "p", "span", "label", "strong", "em", "small", "b", "i", "a", "li", "dt",
        "dd", "td", "th", "figcaption", "caption", "title", "time", "code", "pre", "q", "cite", "mark", "output",
        "legend", "summary", "abbr", "blockquote", "data", "bdi",
    ]

    /// A label's content is its text.
    public override class var templateContentIsSubviews: Bool { false }

    /// The element's text, whitespace collapsed, is the label's ``text``.
    public override class func templateConfiguration(from element: TemplateElement) throws(TemplateError)
        -> TemplateConfiguration?
    {
        let text = element.text
        // A label starts empty: an element without text (a cell's outlet, filled by its cell provider) needs nothing
        // set on each label made from it (Benchmarks/History/40).
        guard !text.isEmpty else { return nil }
        return TemplateConfiguration(Label.self) { $0.text = text }
    }

    /// An outlet on a text element (`h1`, `p`, `span`, `a`…) that holds only text.
    override class func isInferred(from element: TemplateElement) -> Bool {
        element.outlet != nil && textTags.contains(element.tagName) && !element.hasChildElements
    }
}

/// Text between elements, as in static template markup; renders escaped text and no element.
///
/// A text node has no element of its own, so it is never the target of a patch: changing it marks
/// its superview dirty instead.
public final class TextNode: View {
    /// The text; setting a different value marks the enclosing element dirty.
    public var text: String {
        get { storedText }
        set {
            let changed = !newValue.hasSameUTF8(as: storedText)
            storedText = newValue
            if changed { parent?.setNeedsRender() }
        }
    }
    /// `text`'s storage, checked when compiled, as `Label`'s text is.
    private var storedText = ""

    /// Creates an empty text node.
    public required init(tagName: String = "#text") {
        super.init(textNode: ())
    }

    /// Creates a text node holding `text`.
    public convenience init(text: String) {
        self.init()
        // Stored without `text`'s setter: an initializer's assignment marks nothing, as a stored property's observers
        // do not run there.
        storedText = text
    }

    /// Writes the text alone.
    public override func render(into html: inout HTMLBuffer, context: RenderContext) {
        html.appendText(text)
    }
}

/// The text of a template's `<script>` or `<style>`, written unescaped as the template gave it.
///
/// A class of its own rather than a flag on ``TextNode``: one more byte in a text node (a view and a string) would
/// move each of the several a screen keeps into malloc's next size class.
final class RawTextNode: View {
    let text: String

    init(text: String) {
        self.text = text
        super.init(textNode: ())
    }

    required init(tagName: String = "#text") {
        text = ""
        super.init(textNode: ())
    }

    override func render(into html: inout HTMLBuffer, context: RenderContext) {
        html.appendRaw(text)
    }
}
