import Primitives

/// HTTP header fields in their original order, looked up without regard to case.
///
/// ```swift
/// var headers: HTTPHeaders = ["Content-Type": "text/plain"]
/// headers.add("Set-Cookie", "a=1")
/// headers["content-type"]   // "text/plain"
/// ```
public struct HTTPHeaders: Sendable, Equatable, ExpressibleByDictionaryLiteral, Sequence {
    /// The fields as sent, in order; a name may repeat.
    public private(set) var fields: [(name: String, value: String)]

    /// Creates an empty set of headers.
    public init() {
        fields = []
    }

    /// Creates headers from literal pairs, in order.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The first value for `name` (any case); setting replaces every field of that name, `nil` removes them.
    public subscript(name: String) -> String? {
        get {
            fields.first { HTTPHeaders.namesMatch($0.name, name) }?.value
        }
        set {
            remove(name)
            if let newValue { fields.append((name: name, value: newValue)) }
        }
    }

    /// Every value for `name` (any case), in order.
    public func values(for name: String) -> [String] {
        fields.filter { HTTPHeaders.namesMatch($0.name, name) }.map(\.value)
    }

    /// Whether a field named `name` (any case) is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { HTTPHeaders.namesMatch($0.name, name) }
    }

    /// Appends a field, keeping any others of the same name (for `Set-Cookie`).
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Makes room for `count` fields.
    mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    /// Removes every field named `name` (any case).
    public mutating func remove(_ name: String) {
        fields.removeAll { HTTPHeaders.namesMatch($0.name, name) }
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    /// Headers are equal when they hold the same fields in the same order (names compared without case).
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { namesMatch($0.name, $1.name) && $0.value == $1.value }
    }

    /// ASCII case-insensitive comparison without allocating, since lookups happen on every request.
    static func namesMatch(_ lhs: String, _ rhs: String) -> Bool {
        // Names of different lengths differ without a byte read: most comparisons, a look-up passing the other
        // fields. Equal lengths are compared in place, byte by byte: the strings' UTF-8 iterators cost more a step
        // (Benchmarks/History/50).
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        return lhs.withUTF8Bytes { left in
            rhs.withUTF8Bytes { right in
                for index in left.indices {
                    let (a, b) = (left[index], right[index])
                    if a != b && asciiLowercased(a) != asciiLowercased(b) { return false }
                }
                return true
            }
        }
    }

    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        byte >= 65 && byte <= 90 ? byte + 32 : byte
    }
}
