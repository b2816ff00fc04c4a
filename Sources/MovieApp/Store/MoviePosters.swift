public import Screenplay

/// A poster image a store keeps: its bytes, its kind (sniffed when it arrived) and the key it is served under.
public struct StoredPoster: Sendable, Equatable {
    /// The poster's key: the id of the upload it came from (22 URL-safe characters), unique for each version, so
    /// the address made from it (``MoviePosters/path(key:)``) never serves other bytes.
    public var key: String
    public var kind: FileKind
    public var bytes: [UInt8]

    public init(key: String, kind: FileKind, bytes: [UInt8]) {
        self.key = key
        self.kind = kind
        self.bytes = bytes
    }

    /// The poster's `Content-Type`.
    public var contentType: String {
        switch kind {
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        case .webp: "image/webp"
        }
    }
}

/// A store that keeps uploaded posters with its movies (both of the demo's stores): the bytes in a table of their
/// own (`movie_posters`, created when missing, so existing databases take it), the movie's `posterUrl` naming them.
/// A movie keeps the bytes of the poster it shows and no other: a new poster, or the movie's deletion, removes the
/// earlier ones in the same transaction (and opening a store removes those of movies deleted before this rule).
public protocol MoviePosters: Sendable {
    /// Keeps `poster` and makes it movie `id`'s poster: its `posterUrl` becomes ``MoviePosters/path(key:)``, and the
    /// change reaches the movie's screens as any update does. Throws ``StoreError`` (`movieNotFound`, unavailable).
    func setPoster(id: Int, _ poster: StoredPoster) throws(StoreError) -> Movie
    /// The poster kept under `key`, or `nil`.
    func poster(key: String) throws(StoreError) -> StoredPoster?
}

extension MoviePosters {
    /// Where a poster is served: `/posters/{key}`, immutable.
    public static func path(key: String) -> String { postersPath + key }
}

/// The start of every kept poster's address.
let postersPath = "/posters/"

extension FileKind {
    /// The kind a store wrote down (its raw value), or `nil`.
    init?(stored: String?) {
        guard let stored, let kind = FileKind(rawValue: stored) else { return nil }
        self = kind
    }
}
