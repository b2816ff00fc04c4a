/// A view that shows an image by URL (like `UIImageView`), as a lazily (or, for images above the fold, eagerly)
/// loaded `<img>`.
///
/// While `imageURL` is `nil` the element shows `placeholder` (if any) and carries the class
/// `image-placeholder`. Only `http:`/`https:` URLs and site-relative paths are ever rendered as a
/// source; anything else (`javascript:`, `data:`…) renders as if there were no image.
///
/// ```swift
/// let poster = ImageView()
/// poster.alternativeText = "Poster of Heat"
/// poster.placeholder = "/images/poster.svg"
/// loadImage(with: URL(string: "https://img.example.com/heat.jpg")!, into: poster)
/// ```
public final class ImageView: View {
    /// The image's address; `nil` shows the placeholder.
    public var imageURL: String? {
        get { storedImageURL }
        set {
            let changed = !newValue.hasSameUTF8(as: storedImageURL)
            storedImageURL = newValue
            if changed { setNeedsRender() }
        }
    }

    /// The `alt` text; empty marks the image as decorative.
    public var alternativeText: String {
        get { storedAlternativeText }
        set {
            let changed = !newValue.hasSameUTF8(as: storedAlternativeText)
            storedAlternativeText = newValue
            if changed { setNeedsRender() }
        }
    }

    /// The address shown while there is no image.
    public var placeholder: String? {
        get { storedPlaceholder }
        set {
            let changed = !newValue.hasSameUTF8(as: storedPlaceholder)
            storedPlaceholder = newValue
            if changed { setNeedsRender() }
        }
    }

    /// Whether the browser loads the image at once (`loading="eager"`) rather than when it nears the viewport
    /// (`loading="lazy"`, the default). Set it for an image above the fold, such as a detail screen's poster, so that
    /// the page's largest paint does not wait for layout; templates set it with `loading="eager"` on the `<img>`.
    public var loadsEagerly: Bool {
        get { storedLoadsEagerly }
        set {
            let changed = newValue != storedLoadsEagerly
            storedLoadsEagerly = newValue
            if changed { setNeedsRender() }
        }
    }

    // The storage of the four, checked when compiled, as `Label`'s text is.
    private var storedImageURL: String?
    private var storedAlternativeText = ""
    private var storedPlaceholder: String?
    private var storedLoadsEagerly = false

    /// Creates an empty image view; its element is always an `<img>`.
    public required init(tagName: String = "img") {
        super.init(fixedTag: View.imageTag)
    }

    /// The attributes an `<img>` gives the view's properties (its `decoding` is always `async`).
    public override class var templateAttributes: Set<String> { ["alt", "src", "loading", "decoding"] }

    /// An image has no content.
    public override class var templateContentIsSubviews: Bool { false }

    /// `alt` is the ``alternativeText``, `src` the ``placeholder``, `loading="eager"` sets ``loadsEagerly``.
    public override class func templateConfiguration(from element: TemplateElement) throws(TemplateError)
        -> TemplateConfiguration?
    {
        let alternativeText = element.attribute("alt") ?? ""
        let placeholder = element.attribute("src")
        let loadsEagerly = element.attribute("loading") == "eager"
        return TemplateConfiguration(ImageView.self) { image in
            image.alternativeText = alternativeText
            image.placeholder = placeholder
            image.loadsEagerly = loadsEagerly
        }
    }

    /// An `<img>` with an outlet.
    override class func isInferred(from element: TemplateElement) -> Bool {
        element.tagName == "img" && element.outlet != nil
    }

    /// Writes the `<img>` with `src`, `alt`, lazy (or eager) loading and async decoding.
    public override func render(into html: inout HTMLBuffer, context: RenderContext) {
        let image = imageURL.flatMap { Self.isAllowedSource($0) ? $0 : nil }
        let source = image ?? placeholder.flatMap { Self.isAllowedSource($0) ? $0 : nil }
        html.appendStatic("<img")
        writeLeadingAttributes(into: &html, includeID: true, extraClasses: image == nil ? ["image-placeholder"] : [])
        if let source { html.appendAttribute(static: "src", source) }
        html.appendAttribute(static: "alt", alternativeText)
        html.appendStatic(
            loadsEagerly ? " loading=\"eager\" decoding=\"async\"" : " loading=\"lazy\" decoding=\"async\"")
        writeTrailingAttributes(into: &html, includeHidden: true)
        html.append(UInt8(ascii: ">"))
    }

    /// Whether `source` is an `http:`/`https:` URL or a site-relative path.
    package static func isAllowedSource(_ source: String) -> Bool {
        // A site-relative path told by its bytes when they leave no doubt (every screen of a movie checks its poster
        // on each change of the movie, and `hasPrefix` compares characters): "/" and an ASCII byte after it, which
        // cannot be combined with the "/" into another character.
        let isPlainPath = source.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.first == UInt8(ascii: "/")
                && (bytes.count == 1 || (bytes[1] < 0x80 && bytes[1] != UInt8(ascii: "\\")))
        }
        if isPlainPath == true { return true }
        if source.hasPrefix("/") { return !source.hasPrefix("/\\") }
        let lowered = source.prefix(8).lowercased()
        return lowered.hasPrefix("https://") || lowered.hasPrefix("http://")
    }
}
