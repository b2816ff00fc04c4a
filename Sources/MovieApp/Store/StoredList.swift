import FoundationEssentials

/// How both stores keep a movie's lists (genres, tips): as JSON text in a column of their own, always read and
/// written whole, with their movie.
enum StoredList {
    /// `list` as the JSON text a store writes.
    static func text(of list: [String]) throws(StoreError) -> String {
        do {
            return String(decoding: try JSONEncoder().encode(list), as: UTF8.self)
        } catch {
            throw StoreError(.unavailable, message: "encoding a list: \(error)")
        }
    }

    /// The list a store's `column` of movie `id` holds; an error naming both when it is not a JSON list of strings.
    static func list(from text: String?, column: String, id: Int) throws(StoreError) -> [String] {
        do {
            return try JSONDecoder().decode([String].self, from: Data((text ?? "").utf8))
        } catch {
            throw StoreError(.unavailable, message: "movie \(id): the \(column) column is not a JSON list of strings")
        }
    }
}
