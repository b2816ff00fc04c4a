/// The class names of a view's element, in insertion order and without duplicates.
///
/// A value type: change it through the view (`view.classList.insert("hero")`) so the view learns
/// about the change and marks itself for rendering.
public struct ClassList: Equatable, Sendable, Sequence, ExpressibleByArrayLiteral {
    /// The names with their `class` attribute rendered, shared by copies (a template's list by every view made from
    /// its element); nil when there is none.
    private var storage: Storage?

    /// Names and their rendering, never changed: a change makes another. A template's classes are rendered once,
    /// here, so no view escapes its class names on each render.
    private final class Storage: Sendable {
        let names: [String]
        /// ` class="…"`, the names escaped and separated by spaces.
        let attribute: [UInt8]

        init(_ names: [String]) {
            self.names = names
            var html = HTMLBuffer(capacity: 16 + names.reduce(0) { $0 + $1.utf8.count + 1 })
            html.appendStatic(" class=\"")
            for (index, name) in names.enumerated() {
                if index > 0 { html.append(0x20) }
                html.appendAttributeValue(name)
            }
            html.append(0x22)
            attribute = html.bytes
        }
    }

    private var names: [String] { storage?.names ?? [] }

    /// Creates a class list from names, dropping empty names and duplicates.
    public init(_ names: some Sequence<String>) {
        var list: [String] = []
        for name in names { Self.insert(name, into: &list) }
        storage = list.isEmpty ? nil : Storage(list)
    }

    /// Creates an empty class list (what every view starts with, without the literal's generic path).
    init() {
        storage = nil
    }

    /// Creates a class list from a literal: `["card", "is-selected"]`.
    public init(arrayLiteral elements: String...) {
        self.init(elements)
    }

    /// Whether `name` is in the list.
    public func contains(_ name: String) -> Bool { names.contains(name) }

    /// Adds `name` at the end unless it is there already. Names holding whitespace are split.
    public mutating func insert(_ name: String) {
        var list = names
        let count = list.count
        Self.insert(name, into: &list)
        // Nothing added (a binder setting a class its view has, on each update): the storage stays shared.
        guard list.count != count else { return }
        storage = Storage(list)
    }

    private static func insert(_ name: String, into list: inout [String]) {
        if mayHoldWhitespace(name) && name.contains(where: \.isWhitespace) {
            for part in name.split(whereSeparator: \.isWhitespace) { insert(String(part), into: &list) }
            return
        }
        guard !name.isEmpty, !list.contains(name) else { return }
        list.append(name)
    }

    /// False when `name` is ASCII without whitespace (every class name in practice), read from its bytes rather
    /// than by asking each `Character`, which looks up Unicode properties.
    private static func mayHoldWhitespace(_ name: String) -> Bool {
        for byte in name.utf8 where byte <= 0x20 || byte >= 0x80 { return true }
        return false
    }

    /// Removes `name` if present.
    public mutating func remove(_ name: String) {
        // Looked for first (names are unique: `insert` keeps them so): a binder calls `set(_:false)` on each update
        // of each screen, and nothing is copied when the name is not there.
        guard let index = names.firstIndex(of: name) else { return }
        var list = names
        list.remove(at: index)
        storage = list.isEmpty ? nil : Storage(list)
    }

    /// Adds `name` when `isOn` and removes it otherwise.
    public mutating func set(_ name: String, _ isOn: Bool) {
        if isOn { insert(name) } else { remove(name) }
    }

    /// Whether the list is empty.
    public var isEmpty: Bool { storage == nil }

    /// The names joined by spaces, as in a `class` attribute.
    public var value: String { names.joined(separator: " ") }

    /// Writes ` class="…"` with the names, as `appendAttribute("class", value)` would. The list must not be empty.
    func writeAttribute(into html: inout HTMLBuffer) {
        if let storage { html.append(storage.attribute) }
    }

    /// Whether both lists are one list: the same storage, or both empty (a view's list is still its template's).
    func isSameList(as other: ClassList) -> Bool { storage === other.storage }

    /// Whether both lists hold the same names in the same order.
    public static func == (lhs: ClassList, rhs: ClassList) -> Bool {
        lhs.storage === rhs.storage || lhs.names == rhs.names
    }

    /// Iterates the names in order.
    public func makeIterator() -> IndexingIterator<[String]> { names.makeIterator() }
}
