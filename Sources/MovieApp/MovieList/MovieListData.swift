import FoundationEssentials
internal import Primitives

/// What the movie list shows: how many movies match the search, and what changed since it last read its rows. The
/// rows themselves are read by range, as the table's window needs them (``MovieListDriving/movies(in:)``).
struct MovieListData: Equatable, Sendable {
    /// How many movies match the search.
    var total: Int
    /// A message when the catalog cannot be read; nil otherwise.
    var errorMessage: String?
    /// The search as typed; empty shows every movie.
    var query = ""
    /// Counts the catalog changes the list has taken in: each new value reads the table's window again.
    var revision = 0
    /// The movies updated in this revision: the rows showing them are configured again.
    var changed: Set<Int> = []

    /// Whether `movie` matches `query`, as the store decides it (``MovieQuery/matches(_:)``): its title or one of its
    /// genres contains it, ASCII case ignored.
    static func movie(_ movie: Movie, matches query: String) -> Bool {
        MovieQuery(search: query).matches(movie)
    }

    /// The list's URL for `query` on `path`: `/?q=salt`, or the bare path for no search; with `page` above 1,
    /// `page=N` too (`/?q=salt&page=2`, `/?page=3`).
    static func url(path: String, query: String, page: Int = 1) -> String {
        var parameters: [String] = []
        if !query.isEmpty {
            // What a URL's query allows but what separates its parameters (`&`, `=`) or means a space (`+`).
            parameters.append("q=" + PercentEncoding.encode(query, keeping: "!$'()*,/:;?@"))
        }
        if page > 1 { parameters.append("page=\(page)") }
        return parameters.isEmpty ? path : path + "?" + parameters.joined(separator: "&")
    }
}
