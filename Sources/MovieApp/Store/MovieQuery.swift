import FoundationEssentials
internal import Primitives

/// Which movies a list shows, in which order: every movie whose title or one of its genres contains ``search``
/// (ignoring ASCII case; empty matches every movie), sorted by title (by code point, the same on every store), ties
/// by id. A store reads a page of it by range through its title index (``MovieStore/movies(matching:from:count:)``),
/// never the whole table into memory.
///
/// ```swift
/// let query = MovieQuery(search: "drama")
/// let total = try store.count(of: query)
/// let page = try store.movies(matching: query, from: 200, count: 100)
/// ```
public struct MovieQuery: Sendable, Hashable {
    /// The text to find in titles and genres, trimmed of surrounding white space.
    public let search: String

    /// A query for `search` (trimmed; empty matches every movie).
    public init(search: String = "") {
        self.search = search.trimmingWhitespace()
    }

    /// Every movie.
    public static let all = MovieQuery()

    /// The search as a `LIKE` pattern with `\` as its escape: `%text%`, the text's `%`, `_` and `\` escaped.
    var likePattern: String {
        var pattern = "%"
        for character in search {
            if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
            pattern.append(character)
        }
        return pattern + "%"
    }

    /// Whether `a` comes before `b` in the query's order: by title, by code point, then by id.
    public static func areInOrder(_ a: Movie, _ b: Movie) -> Bool {
        if a.title.unicodeScalars.elementsEqual(b.title.unicodeScalars) { return a.id < b.id }
        return a.title.utf8.lexicographicallyPrecedes(b.title.utf8)
    }

    /// Whether `movie` is among the query's movies, as the stores decide it.
    public func matches(_ movie: Movie) -> Bool {
        guard !search.isEmpty else { return true }
        let needle = search.lowercasedASCII
        return movie.title.lowercasedASCII.contains(needle)
            || movie.genres.contains { $0.lowercasedASCII.contains(needle) }
    }
}

extension String {
    /// The string with ASCII letters in lower case and every other character as it is (what `LIKE` ignores).
    var lowercasedASCII: String {
        String(
            decoding: utf8.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }
}
