/// Decoded `name=value` pairs from a query string or an `application/x-www-form-urlencoded` body.
///
/// Keys may repeat; `+` means a space; percent-escapes are decoded as UTF-8. Pairs keep their order.
///
/// ```swift
/// // /search?q=star+wars&genre=drama&genre=scifi
/// request.query["q"]              // "star wars"
/// request.query.values(for: "genre")  // ["drama", "scifi"]
/// ```
public struct QueryParameters: Sendable, Equatable, Sequence {
    /// The pairs in the order they were sent.
    public private(set) var pairs: [(name: String, value: String)]

    /// Creates parameters from decoded pairs.
    public init(_ pairs: [(name: String, value: String)] = []) {
        self.pairs = pairs
    }

    /// The first value for `name`, or `nil`.
    public subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] {
        pairs.filter { $0.name == name }.map(\.value)
    }

    /// Whether `name` is present (with or without a value).
    public func contains(_ name: String) -> Bool {
        pairs.contains { $0.name == name }
    }

    /// Whether there are no pairs.
    public var isEmpty: Bool { pairs.isEmpty }

    /// Iterates the pairs in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        pairs.makeIterator()
    }

    /// Equal when the same pairs come in the same order.
    public static func == (lhs: QueryParameters, rhs: QueryParameters) -> Bool {
        lhs.pairs.count == rhs.pairs.count && zip(lhs.pairs, rhs.pairs).allSatisfy { $0 == $1 }
    }

    /// Parses `a=1&b=2` (no leading `?`). Invalid UTF-8 becomes U+FFFD, as browsers do.
    init<Bytes: Collection<UInt8>>(parsing bytes: Bytes) {
        // Cannot fail: the lenient strictness never rejects.
        self = QueryParameters(parsing: bytes, strictness: .replacingInvalidUTF8)!
    }

    /// Parses `a=1&b=2`; returns `nil` when a name or value is not UTF-8 under `.rejectingInvalidUTF8`.
    init?<Bytes: Collection<UInt8>>(parsing bytes: Bytes, strictness: PercentDecoding.Strictness) {
        var pairs: [(name: String, value: String)] = []
        for piece in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let name: Bytes.SubSequence
            let value: Bytes.SubSequence
            if let equals = piece.firstIndex(of: UInt8(ascii: "=")) {
                name = piece[piece.startIndex..<equals]
                value = piece[piece.index(after: equals)...]
            } else {
                name = piece
                value = piece[piece.endIndex...]
            }
            guard let decodedName = PercentDecoding.decode(name, plusAsSpace: true, strictness: strictness),
                let decodedValue = PercentDecoding.decode(value, plusAsSpace: true, strictness: strictness)
            else { return nil }
            pairs.append((name: decodedName, value: decodedValue))
        }
        self.pairs = pairs
    }
}

/// The fields of an `application/x-www-form-urlencoded` body; see ``Request/form()``.
public typealias FormParameters = QueryParameters
