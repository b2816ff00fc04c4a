import Foundation

/// What the movie list shows.
struct MovieListData: Equatable, Sendable {
    /// The movies that match the search, in catalog order.
    var movies: [Movie]
    /// A message when the catalog cannot be read; nil otherwise.
    var errorMessage: String?
    /// The search as typed; empty shows every movie.
    var query = ""

    /// Whether `movie` matches `query`: its title or one of its genres contains it, ignoring case.
    static func movie(_ movie: Movie, matches query: String) -> Bool {
        let query = query.trimmingCharacters(in: .whitespaces)
        guard !query.isEmpty else { return true }
        return movie.title.range(of: query, options: [.caseInsensitive, .diacriticInsensitive]) != nil
            || movie.genres.contains { $0.range(of: query, options: [.caseInsensitive, .diacriticInsensitive]) != nil }
    }

    /// The list's URL for `query` on `path`: `/?q=salt`, or the bare path for no search.
    static func url(path: String, query: String) -> String {
        guard !query.isEmpty else { return path }
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+#")
        return path + "?q=" + (query.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
    }
}
