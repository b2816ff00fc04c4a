/// A setting the application cannot run with, named with what to do instead.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    /// What is wrong and how to fix it.
    public let description: String

    /// Creates the error.
    public init(_ description: String) {
        self.description = description
    }
}
