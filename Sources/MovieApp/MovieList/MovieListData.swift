import Foundation

/// What the movie list shows.
struct MovieListData: Equatable, Sendable {
    /// The movies that match the search, by title then id.
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

    /// The list's URL for `query` on `path`: `/?q=salt`, or the bare path for no search; with `page` above 1,
    /// `page=N` too (`/?q=salt&page=2`, `/?page=3`).
    static func url(path: String, query: String, page: Int = 1) -> String {
        var parameters: [String] = []
        if !query.isEmpty {
            var allowed = CharacterSet.urlQueryAllowed
            allowed.remove(charactersIn: "&=+#")
            parameters.append("q=" + (query.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""))
        }
        if page > 1 { parameters.append("page=\(page)") }
        return parameters.isEmpty ? path : path + "?" + parameters.joined(separator: "&")
    }

    /// Whether `a` comes before `b` in the list: by title, then by id.
    static func listOrder(_ a: Movie, _ b: Movie) -> Bool {
        a.title != b.title ? a.title < b.title : a.id < b.id
    }
}
