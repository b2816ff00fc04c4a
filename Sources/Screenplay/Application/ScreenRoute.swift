internal import Foundation
internal import ViewKit

/// A screen route: a path pattern and the factory that assembles the screen's view controller, driver and binder.
struct ScreenRoute: Sendable {
    let pattern: String
    let segments: [Segment]
    let parent: String
    let factory: @Sendable (ScreenRequest) throws -> ViewController

    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    init(pattern: String, parent: String, factory: @escaping @Sendable (ScreenRequest) throws -> ViewController) {
        self.pattern = pattern
        self.parent = parent
        self.factory = factory
        segments = pattern.split(separator: "/").map { part in
            part.hasPrefix(":") ? .parameter(String(part.dropFirst())) : .literal(String(part))
        }
    }

    /// The path parameters if `path` matches this route's pattern.
    func match(_ path: String) -> [String: String]? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (part, segment) in zip(parts, segments) {
            switch segment {
            case .literal(let literal) where literal == part: continue
            case .literal: return nil
            case .parameter(let name):
                guard let value = String(part).removingPercentEncoding else { return nil }
                parameters[name] = value
            }
        }
        return parameters
    }
}
