import ViewKit

/// The MovieDetail tips (nib `Templates/Views/MovieTipsView.html`): one row per tip, kept by its text, so an
/// added tip is one inserted row.
final class MovieTipsView: View {
    override class var outletTypes: [String: View.Type] {
        ["tipsList": ListView.self, "emptyLabel": Label.self]
    }

    // Found once, on first use (see MovieHeaderView).
    private lazy var tipsList: ListView = outlet("tipsList")
    private lazy var emptyLabel: Label = outlet("emptyLabel")

    /// The tips last shown, so a change elsewhere in the movie (its rating, say) skips the list's diff.
    private var shownTips: [String]?

    /// Shows the tips of `data`'s movie, or a note when it has none.
    func configure(with data: MovieDetailData) {
        // Whether there is a movie, asked once: each `data.movie == nil` copied the movie and destroyed the copy.
        let hasMovie = data.hasMovie
        let tips = data.movie?.tips ?? []
        emptyLabel.isHidden = !tips.isEmpty || !hasMovie
        tipsList.isHidden = tips.isEmpty
        // No movie (the store failed or it was removed): no tips heading over nothing.
        isHidden = !hasMovie && data.phase != .loading
        // Every open screen of a movie runs this on each change of it, and most changes (a rating, say) leave the
        // tips as they were: no need to diff the rows then.
        if let shownTips, tips.isSameText(as: shownTips) { return }
        shownTips = tips
        // The rows' items made by `map` over the indices: `Array(tips.enumerated())` goes through the standard
        // library's unspecialised sequence copy.
        tipsList.update(with: tips.indices.map { TipID(offset: $0, text: tips[$0]) }, id: { $0 }) { _ in
            Label(tagName: "li")
        } configureRow: { row, tip in
            (row as? Label)?.text = tip.text
        }
    }
}

/// A tip row's identity: its place and its text. A struct of one word and a string fits in `AnyHashable` without a
/// box, and shares the text with the movie, where the text "offset:tip" was a new string per row kept for the
/// life of the screen.
private struct TipID: Hashable {
    let offset: Int
    let text: String
}
