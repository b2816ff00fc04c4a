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

    /// What the subtitle was last made from (`.some(nil)`: no movie; `nil`: not made yet): every screen of a movie
    /// runs `configure` on each change of the movie, and a change of its rating (say) leaves the year, runtime and
    /// genres as they were. One optional in another rather than a flag beside it: the array's spare bit patterns
    /// hold both, and the header, kept as long as its screen, stays a size class smaller.
    private var subtitleMadeFrom: SubtitleSource??

    /// Shows `data`; only the labels whose text changes are re-rendered.
    func configure(with data: MovieDetailData) {
        statusLabel.text = data.statusText
        statusLabel.isHidden = data.statusText.isEmpty
        var statusClasses = statusLabel.classList
        statusClasses.set("error", { if case .failed = data.phase { true } else { false } }())
        if statusClasses != statusLabel.classList { statusLabel.classList = statusClasses }
        titleLabel.text = data.movie?.title ?? (data.phase == .loading ? "Loading…" : "Unavailable")
        let subtitleSource = data.movie.map {
            SubtitleSource(year: $0.year, runtimeMinutes: $0.runtimeMinutes, genres: $0.genres)
        }
        if !(subtitleMadeFrom.map { subtitleSource.isSame(as: $0) } ?? false) {
            subtitleMadeFrom = .some(subtitleSource)
            subtitleLabel.text = data.subtitle
        }
        ratingLabel.text = data.ratingText
        // A rating of "–" means nothing once the movie cannot be read; while loading it holds the place.
        ratingLine.isHidden = data.movie == nil && data.phase != .loading
        overviewLabel.text = data.movie?.overview ?? ""
    }
}

/// The fields of a movie its header's subtitle shows (``MovieDetailData/subtitle``).
private struct SubtitleSource {
    let year: Int
    let runtimeMinutes: Int
    let genres: [String]
}

extension SubtitleSource? {
    /// Whether both make the same subtitle: no movie for both, or the same year, runtime and genres (the same code
    /// points, as the page shows them).
    fileprivate func isSame(as other: SubtitleSource?) -> Bool {
        switch (self, other) {
        case (nil, nil): return true
        case (let mine?, let theirs?):
            return mine.year == theirs.year && mine.runtimeMinutes == theirs.runtimeMinutes
                && mine.genres.isSameText(as: theirs.genres)
        default: return false
        }
    }
}
