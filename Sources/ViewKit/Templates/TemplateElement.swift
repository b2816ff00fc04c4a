/// One element of a template as a view kind reads it at start-up: the spirit of the coder UIKit's `init(coder:)`
/// gets.
///
/// Read-only, and only while templates load: a kind reads what it needs in
/// ``View/templateConfiguration(from:)`` and returns a ``TemplateConfiguration`` that each view made from the element
/// takes. A mistake in the element is reported with ``error(_:)``, which names the template's file, the element's
/// line and its outlet.
///
/// ```swift
/// override class func templateConfiguration(from element: TemplateElement) throws(TemplateError)
///     -> TemplateConfiguration?
/// {
///     guard let count = Int(element.attribute("data-count") ?? "0") else {
///         throw element.error("data-count must be a whole number")
///     }
///     return TemplateConfiguration(BadgeView.self) { $0.count = count }
/// }
/// ```
public struct TemplateElement {
    let node: ParsedNode

    /// The template's file, relative to the templates directory.
    public let file: String
    /// The element's name, as the HTML parser gives it (`span`, `button`, `my-card`).
    public var tagName: String { node.tagName ?? "" }
    /// The 1-based line the element starts on.
    public var line: Int { node.line }
    /// The element's `data-outlet`, if any.
    public var outlet: String? { node.attribute("data-outlet") }

    init(node: ParsedNode, file: String) {
        self.node = node
        self.file = file
    }

    /// The value of the attribute `name` (`""` for a boolean attribute that is present), or `nil` when absent.
    public func attribute(_ name: String) -> String? {
        node.attribute(name)
    }

    /// Whether the element has the attribute `name`, with any value.
    public func hasAttribute(_ name: String) -> Bool {
        node.attribute(name) != nil
    }

    /// The text of the element and its descendants as the template has it, entities decoded.
    public var textContent: String {
        node.textContent
    }

    /// The text of the element and its descendants with runs of whitespace collapsed to one space and none at
    /// either end: a label's or a button's title.
    public var text: String {
        TemplateCompiler.collapsedText(node.textContent)
    }

    /// Whether any child of the element is an element (not only text).
    public var hasChildElements: Bool {
        node.children.contains { $0.tagName != nil }
    }

    /// The element's child elements, in order (a picker's `<option>`s).
    public var childElements: [TemplateElement] {
        node.children.compactMap { $0.tagName == nil ? nil : TemplateElement(node: $0, file: file) }
    }

    /// An error about this element: its file, its line, its outlet and `message`.
    public func error(_ message: String) -> TemplateError {
        TemplateError(file: file, line: line, outlet: outlet, message: message)
    }
}

@available(*, unavailable)
extension TemplateElement: Sendable {}
