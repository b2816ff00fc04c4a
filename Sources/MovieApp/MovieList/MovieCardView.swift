import Foundation
import ViewKit

/// One movie in the list: a link to its detail page with poster, title, year and rating. Built in code.
final class MovieCardView: View {
    private let link = View(tagName: "a")
    private let poster = ImageView()
    private let titleLabel = Label(tagName: "h2")
    private let detail = View(tagName: "p")
    private let yearLabel = Label(tagName: "span")
    private let ratingLabel = Label(tagName: "span")

    required init(tagName: String = "li") {
        super.init(tagName: "li")
        classList.insert("movie-card")
        poster.classList.insert("poster")
        titleLabel.classList.insert("title")
        detail.classList.insert("meta")
        yearLabel.classList.insert("year")
        ratingLabel.classList.insert("rating")
        addSubview(link)
        for view in [poster, titleLabel, detail] as [View] { link.addSubview(view) }
        detail.addSubview(yearLabel)
        detail.addSubview(ratingLabel)
    }

    func configure(with movie: Movie) {
        link.setAttribute("href", "/movies/\(movie.id)")
        poster.alternativeText = "Poster of \(movie.title)"
        poster.placeholder = "/public/images/poster-placeholder.svg"
        if let url = movie.posterUrl.flatMap(URL.init(string:)) { loadImage(with: url, into: poster) }
        titleLabel.text = movie.title
        yearLabel.text = String(movie.year)
        ratingLabel.text = "★ " + MovieDetailData.rating(movie.rating)
    }
}
