internal import Foundation
internal import HTTPServer

extension Request {
    /// The request's path and query as a site-relative URL, re-encoded: the URL a screen is rebuilt from.
    var screenURL: String {
        var components = URLComponents()
        components.path = path
        if !query.isEmpty {
            components.queryItems = query.map { URLQueryItem(name: $0.name, value: $0.value) }
        }
        return components.string ?? path
    }
}
