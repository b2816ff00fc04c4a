/// What the movie list shows.
struct MovieListData: Equatable, Sendable {
    /// The movies, in catalog order.
    var movies: [Movie]
    /// A message when the catalog cannot be read; nil otherwise.
    var errorMessage: String?
}
