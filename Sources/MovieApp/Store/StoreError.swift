/// Why a ``MovieStore`` could not do what it was asked.
///
/// A store never crashes on a bad disk, a read-only file or a broken catalog: it throws this. The
/// ``kind`` tells callers how to answer (the JSON API maps ``Kind/notFound`` to 404 and the others
/// to 503); the ``message`` is for logs and names what failed.
///
/// ```swift
/// do { _ = try store.update(id: 99, with: patch) } catch let error as StoreError where error.kind == .notFound {
///     // answer 404
/// }
/// ```
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The families of store failure callers treat differently.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private let name: String

        /// No movie has the requested id.
        public static let notFound = Kind(name: "not found")
        /// The database could not be opened, read or written (read-only file, disk full, corruption, locked).
        public static let unavailable = Kind(name: "unavailable")
        /// The movie changed since the version a conditional update expected.
        public static let conflict = Kind(name: "conflict")
        /// The catalog the store was asked to seed from is missing or invalid.
        public static let invalidCatalog = Kind(name: "invalid catalog")

        /// The kind's name, as in messages.
        public var description: String { name }
    }

    /// The family of the failure.
    public let kind: Kind
    /// What failed, in words, such as `updating movie 3: attempt to write a readonly database (code 8)`.
    public let message: String

    /// Creates an error of a kind with a message.
    public init(_ kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message, prefixed by the kind.
    public var description: String { "\(kind): \(message)" }

    /// The error thrown when no movie has `id`.
    static func movieNotFound(_ id: Int) -> StoreError {
        StoreError(.notFound, message: "no movie has id \(id)")
    }

    /// The error thrown when movie `id` is not the version a conditional update expected.
    static func changedMeanwhile(_ id: Int) -> StoreError {
        StoreError(.conflict, message: "movie \(id) changed since it was read")
    }
}
