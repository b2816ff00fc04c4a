/// Why the server could not start, such as a port that is already taken.
public struct ServerError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for a person: "cannot listen on 127.0.0.1:8080: Address already in use".
    public let message: String

    init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
