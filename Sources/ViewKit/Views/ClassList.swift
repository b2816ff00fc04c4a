/// The class names of a view's element, in insertion order and without duplicates.
///
/// A value type: change it through the view (`view.classList.insert("hero")`) so the view learns
/// about the change and marks itself for rendering.
public struct ClassList: Equatable, Sendable, Sequence, ExpressibleByArrayLiteral {
    private var names: [String]

    /// Creates a class list from names, dropping empty names and duplicates.
    public init(_ names: some Sequence<String>) {
        self.names = []
        for name in names { insert(name) }
    }

    /// Creates an empty class list (what every view starts with, without the literal's generic path).
    init() {
        names = []
    }

    /// Creates a class list from a literal: `["card", "is-selected"]`.
    public init(arrayLiteral elements: String...) {
        self.init(elements)
    }

    /// Whether `name` is in the list.
    public func contains(_ name: String) -> Bool { names.contains(name) }

    /// Adds `name` at the end unless it is there already. Names holding whitespace are split.
    public mutating func insert(_ name: String) {
        if Self.mayHoldWhitespace(name) && name.contains(where: \.isWhitespace) {
            for part in name.split(whereSeparator: \.isWhitespace) { insert(String(part)) }
            return
        }
        guard !name.isEmpty, !names.contains(name) else { return }
        names.append(name)
    }

    /// False when `name` is ASCII without whitespace (every class name in practice), read from its bytes: asking
    /// each `Character` whether it is whitespace looks up Unicode properties, a few hundred instructions a name.
    private static func mayHoldWhitespace(_ name: String) -> Bool {
        for byte in name.utf8 where byte <= 0x20 || byte >= 0x80 { return true }
        return false
    }

    /// Removes `name` if present.
    public mutating func remove(_ name: String) {
        // Looked for first (names are unique: `insert` keeps them so): `removeAll(where:)` made the storage unique
        // even when nothing matched, copying it on every `set(_:false)` of a list copied from a view, as a binder
        // does on each update of each screen.
        guard let index = names.firstIndex(of: name) else { return }
        names.remove(at: index)
    }

    /// Adds `name` when `isOn` and removes it otherwise.
    public mutating func set(_ name: String, _ isOn: Bool) {
        if isOn { insert(name) } else { remove(name) }
    }

    /// Whether the list is empty.
    public var isEmpty: Bool { names.isEmpty }

    /// The names joined by spaces, as in a `class` attribute.
    public var value: String { names.joined(separator: " ") }

    /// Writes ` class="…"` with the names, as `appendAttribute("class", value)` would, without
    /// joining them into a string first. The list must not be empty.
    func writeAttribute(into html: inout HTMLBuffer) {
        html.appendStatic(" class=\"")
        var isFirst = true
        for name in names {
            if !isFirst { html.append(0x20) }
            isFirst = false
            html.appendAttributeValue(name)
        }
        html.append(0x22)
    }

    /// Iterates the names in order.
    public func makeIterator() -> IndexingIterator<[String]> { names.makeIterator() }
}
