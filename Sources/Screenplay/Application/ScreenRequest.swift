/// What a screen factory is given: the request that opened the screen.
public struct ScreenRequest: Sendable {
    /// The screen's URL: path and query, site-relative.
    public let url: String
    /// The path, without the query.
    public let path: String
    /// The route's path parameters (`/movies/:id` → `["id": "3"]`).
    public let parameters: [String: String]
    /// The decoded query parameters (the last value of a repeated key).
    public let query: [String: String]

    /// Creates a request; the runtime and the test harness do this.
    public init(url: String, path: String, parameters: [String: String] = [:], query: [String: String] = [:]) {
        self.url = url
        self.path = path
        self.parameters = parameters
        self.query = query
    }
}

/// Thrown by a screen factory when the request names something that does not exist: the application shows its
/// not-found screen with status 404.
public struct ScreenNotFound: Error, Sendable, CustomStringConvertible {
    /// What was not found, for the log.
    public let description: String

    /// Creates the error.
    public init(_ description: String) {
        self.description = description
    }
}
