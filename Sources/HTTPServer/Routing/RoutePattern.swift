/// A path pattern such as `/movies/:id` or `/public/*path`, matched segment by segment.
///
/// `:name` matches exactly one non-empty segment; `*name` (last only) matches the rest of the
/// path, possibly empty. Matching runs on the still-encoded path, so `%2F` never splits a segment;
/// captured values are percent-decoded.
struct RoutePattern: Sendable, CustomStringConvertible {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        case wildcard(String)
    }

    let segments: [Segment]
    let description: String

    init(_ pattern: String) {
        precondition(pattern.hasPrefix("/"), "A route pattern starts with '/': \(pattern)")
        description = pattern
        let pieces = pattern.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        segments = pieces.enumerated().map { index, piece in
            if piece.hasPrefix(":") && piece.count > 1 {
                return .parameter(String(piece.dropFirst()))
            }
            if piece.hasPrefix("*") {
                precondition(index == pieces.count - 1, "'*' must be the last segment of \(pattern)")
                return .wildcard(String(piece.dropFirst()))
            }
            return .literal(String(piece))
        }
    }

    /// The decoded parameters when `rawSegments` (the path split at `/`, without the leading one)
    /// matches, `nil` otherwise.
    func match(_ rawSegments: [Substring]) -> [String: String]? {
        var parameters: [String: String] = [:]
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .literal(let text):
                guard index < rawSegments.count, rawSegments[index] == text else { return nil }
            case .parameter(let name):
                guard index < rawSegments.count, !rawSegments[index].isEmpty else { return nil }
                parameters[name] = PercentDecoding.decode(rawSegments[index].utf8, plusAsSpace: false)
            case .wildcard(let name):
                let rest = rawSegments[min(index, rawSegments.count)...].joined(separator: "/")
                parameters[name] = PercentDecoding.decode(rest.utf8, plusAsSpace: false)
                return parameters
            }
        }
        return rawSegments.count == segments.count ? parameters : nil
    }

    /// Splits a raw path (`/a/b`) into its segments (`["a", "b"]`).
    static func split(_ rawPath: String) -> [Substring] {
        rawPath.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
    }
}
