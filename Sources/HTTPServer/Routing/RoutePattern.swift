/// A path pattern such as `/movies/:id` or `/public/*path`, matched segment by segment.
///
/// `:name` matches exactly one non-empty segment; `*name` (last only) matches the rest of the
/// path, possibly empty. Matching runs on the still-encoded path, so `%2F` never splits a segment;
/// captured values are percent-decoded. The one matcher of the framework: the router's routes and the screen routes
/// (which match a URL again when a screen is rebuilt from it) both use it.
///
/// ```swift
/// RoutePattern("/movies/:id").match(path: "/movies/7")   // ["id": "7"]
/// ```
package struct RoutePattern: Sendable, CustomStringConvertible {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        case wildcard(String)
    }

    let segments: [Segment]
    /// The pattern as written.
    package let description: String
    /// What is wrong with the pattern, when something is: the server then refuses to start, naming it.
    package let mistake: String?
    /// Whether the last segment is a `*name`.
    private let hasWildcard: Bool
    /// Whether any segment is a `:name` or `*name`.
    private let hasParameters: Bool

    /// Parses `pattern`; a malformed one keeps its ``mistake`` and matches nothing it should not.
    package init(_ pattern: String) {
        description = pattern
        var mistake: String? = pattern.hasPrefix("/") ? nil : "the route pattern “\(pattern)” must start with /"
        let pieces = pattern.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        segments = pieces.enumerated().map { index, piece in
            if piece.hasPrefix(":") && piece.count > 1 {
                return .parameter(String(piece.dropFirst()))
            }
            if piece.hasPrefix("*") {
                if index != pieces.count - 1 {
                    mistake = "in the route pattern “\(pattern)”, *name must be the last segment"
                }
                return .wildcard(String(piece.dropFirst()))
            }
            return .literal(String(piece))
        }
        hasWildcard = segments.last.map { if case .wildcard = $0 { true } else { false } } ?? false
        hasParameters = segments.contains { if case .literal = $0 { false } else { true } }
        self.mistake = mistake
    }

    /// The decoded parameters when `rawSegments` (the path split at `/`, without the leading one)
    /// matches, `nil` otherwise.
    ///
    /// A route table asks every pattern in turn, so a path is turned down on its segment count and literals before
    /// anything is decoded or stored, and no parameters are built for a pattern that then fails.
    /// What a path must have for this pattern to match it, checked without the pattern itself: its number of
    /// segments (at least, with a wildcard) and its first segment when the pattern's is a literal.
    struct Shape: Sendable {
        let segmentCount: Int
        let hasWildcard: Bool
        let firstLiteral: String?

        /// False when the pattern cannot match `rawSegments`; true when ``RoutePattern/match(_:)`` must decide.
        func admits(_ rawSegments: [Substring]) -> Bool {
            guard hasWildcard ? rawSegments.count >= segmentCount - 1 : rawSegments.count == segmentCount else {
                return false
            }
            guard let firstLiteral else { return true }
            return !rawSegments.isEmpty && rawSegments[0] == firstLiteral[...]
        }
    }

    /// The pattern's ``Shape``.
    var shape: Shape {
        var firstLiteral: String?
        if case .literal(let text) = segments.first, !(hasWildcard && segments.count == 1) { firstLiteral = text }
        return Shape(segmentCount: segments.count, hasWildcard: hasWildcard, firstLiteral: firstLiteral)
    }

    func match(_ rawSegments: [Substring]) -> [String: String]? {
        guard hasWildcard ? rawSegments.count >= segments.count - 1 : rawSegments.count == segments.count else {
            return nil
        }
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .literal(let text):
                guard index < rawSegments.count, rawSegments[index] == text[...] else { return nil }
            case .parameter:
                guard index < rawSegments.count, !rawSegments[index].isEmpty else { return nil }
            case .wildcard:
                break
            }
        }
        guard hasParameters else { return [:] }
        var parameters: [String: String] = [:]
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .literal:
                continue
            case .parameter(let name):
                parameters[name] = PercentDecoding.decode(rawSegments[index].utf8, plusAsSpace: false)
            case .wildcard(let name):
                let rest = rawSegments[min(index, rawSegments.count)...].joined(separator: "/")
                parameters[name] = PercentDecoding.decode(rest.utf8, plusAsSpace: false)
            }
        }
        return parameters
    }

    /// The decoded parameters when the still-encoded `path` (`/movies/7`, no query) matches, `nil` otherwise.
    package func match(path: String) -> [String: String]? {
        guard path.hasPrefix("/") else { return nil }
        return match(Self.split(path))
    }

    /// Splits a raw path (`/a/b`) into its segments (`["a", "b"]`), after the first character, at every `/`.
    ///
    /// A path of ASCII bytes (every path a browser sends: the rest is percent-encoded) is cut at its slashes byte by
    /// byte, its segments counted first so that their array is made once: the segments of the split by characters,
    /// which tells each character's end from the grapheme rules. A path with other bytes keeps that split, where a
    /// slash that a combining mark follows is one character with it and cuts nothing.
    static func split(_ rawPath: String) -> [Substring] {
        let utf8 = rawPath.utf8
        var slashes = 0
        for byte in utf8 {
            if byte >= 0x80 { return rawPath.dropFirst().split(separator: "/", omittingEmptySubsequences: false) }
            if byte == UInt8(ascii: "/") { slashes += 1 }
        }
        guard !utf8.isEmpty else { return [rawPath[...]] }
        if utf8.first == UInt8(ascii: "/") { slashes -= 1 }
        var segments: [Substring] = []
        segments.reserveCapacity(slashes + 1)
        var start = utf8.index(after: utf8.startIndex)
        var index = start
        while index != utf8.endIndex {
            if utf8[index] == UInt8(ascii: "/") {
                segments.append(rawPath[start..<index])
                start = utf8.index(after: index)
            }
            utf8.formIndex(after: &index)
        }
        segments.append(rawPath[start..<utf8.endIndex])
        return segments
    }
}
