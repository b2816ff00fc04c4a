/// Why a patch was refused, naming the field at fault.
///
/// Its ``description`` is what the JSON API sends back in `{"error": "…"}`, such as
/// `rating: must be a number from 0 to 10` or `genres[2]: must be a string of 1 to 300 characters`.
/// Problems with the document as a whole (not JSON, too large, duplicate keys) name `body`, or the
/// duplicated key.
public struct MoviePatchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The field at fault, such as `rating` or `tips[0]`; `body` for the document as a whole.
    public let field: String
    /// What is wrong with it, such as `must be a number from 0 to 10`.
    public let reason: String

    /// Creates an error for a field.
    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    /// `field: reason`.
    public var description: String { "\(field): \(reason)" }
}
