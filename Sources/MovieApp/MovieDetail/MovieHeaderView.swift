import ViewKit

/// The MovieDetail header (nib `Templates/Views/MovieHeaderView.html`): status, title, year · runtime · genres,
/// rating and overview.
final class MovieHeaderView: View {
    override class var outletTypes: [String: View.Type] {
        [
            "statusLabel": Label.self, "titleLabel": Label.self, "subtitleLabel": Label.self,
            "ratingLine": View.self, "ratingLabel": Label.self, "overviewLabel": Label.self,
        ]
    }

    // Found once, on first use: the nib's views stay for the header's life, and each search walks its subtree.
    private lazy var statusLabel: Label = outlet("statusLabel")
    private lazy var titleLabel: Label = outlet("titleLabel")
    private lazy var subtitleLabel: Label = outlet("subtitleLabel")
    private lazy var ratingLine: View = outlet("ratingLine")
    private lazy var ratingLabel: Label = outlet("ratingLabel")
    private lazy var overviewLabel: Label = outlet("overviewLabel")

    /// Shows `data`; only the labels whose text changes are re-rendered.
    func configure(with data: MovieDetailData) {
        statusLabel.text = data.statusText
        statusLabel.isHidden = data.statusText.isEmpty
        var statusClasses = statusLabel.classList
        statusClasses.set("error", { if case .failed = data.phase { true } else { false } }())
        if statusClasses != statusLabel.classList { statusLabel.classList = statusClasses }
        titleLabel.text = data.movie?.title ?? (data.phase == .loading ? "Loading…" : "Unavailable")
        subtitleLabel.text = data.subtitle
        ratingLabel.text = data.ratingText
        // A rating of "–" means nothing once the movie cannot be read; while loading it holds the place.
        ratingLine.isHidden = data.movie == nil && data.phase != .loading
        overviewLabel.text = data.movie?.overview ?? ""
    }
}
