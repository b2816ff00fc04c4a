import FoundationEssentials
import ViewKit

/// Binds one movie to a cell of the list's `movie` prototype (`Templates/MovieList.html`): a link to its detail
/// page with poster, title, year and rating to one decimal. Only what differs from what the cell shows is changed,
/// so a reloaded movie sends only its changed parts.
struct MovieCellBinder {
    /// The cell's reuse identifier in the template.
    static let reuseIdentifier = "movie"

    func configure(_ cell: View, with movie: Movie) {
        cell.outlet("link", as: View.self).setAttribute("href", "/movies/\(movie.id)")
        let poster = cell.outlet("poster", as: ImageView.self)
        poster.alternativeText = "Poster of \(movie.title)"
        poster.placeholder = "/public/images/poster-placeholder.svg"
        if let url = movie.posterUrl.flatMap(URL.init(string:)) { loadImage(with: url, into: poster) }
        cell.outlet("titleLabel", as: Label.self).text = movie.title
        cell.outlet("yearLabel", as: Label.self).text = String(movie.year)
        cell.outlet("ratingLabel", as: Label.self).text = MovieDetailData.starredRating(movie.rating)
    }
}
