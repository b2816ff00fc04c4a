/// What the MovieDetail screen shows: the movie (once read) and the state of reading it.
public struct MovieDetailData: Equatable, Sendable {
    /// Where the screen is in reading its movie.
    public enum Phase: Equatable, Sendable {
        /// Reading the movie for the first time.
        case loading
        /// Showing the movie.
        case loaded
        /// Showing the movie while reading it again.
        case refreshing
        /// The store failed; `message` says what the user can do.
        case failed(message: String)
    }

    /// The movie, once read.
    public var movie: Movie?
    /// The state of reading it.
    public var phase: Phase

    /// Creates the data.
    public init(movie: Movie?, phase: Phase) {
        self.movie = movie
        self.phase = phase
    }

    /// Nothing read yet.
    public static let loading = MovieDetailData(movie: nil, phase: .loading)

    /// Whether a movie was read.
    public var hasMovie: Bool {
        if case .none = movie { false } else { true }
    }
    /// The poster's URL, as the seed's binder reads it.
    public var posterUrl: String? { movie?.posterUrl }
    /// The title, or a placeholder while loading.
    public var title: String { movie?.title ?? "Loading…" }
    /// Year, runtime and genres as one line: "2019 · 1 h 52 min · Drama, Mystery".
    public var subtitle: String {
        guard let movie else { return "" }
        let minutes = movie.runtimeMinutes
        let runtime = minutes >= 60 ? "\(minutes / 60) h \(minutes % 60) min" : "\(minutes) min"
        let genres = movie.genres.isEmpty ? "" : " · " + movie.genres.joined(separator: ", ")
        return "\(movie.year) · \(runtime)\(genres)"
    }
    /// The rating with one decimal: "7.9".
    public var ratingText: String {
        guard let movie else { return "–" }
        return Self.rating(movie.rating)
    }
    /// The status line: empty when loaded.
    public var statusText: String {
        switch phase {
        case .loading: "Loading…"
        case .loaded: ""
        case .refreshing: "Refreshing…"
        case .failed(let message): message
        }
    }

    /// A rating with one decimal: "7.9". A rating of the store's range (0 to 10) is read from a table made once, as
    /// a cell's star line is (``starredRating(_:)``): every page shows five, and formatting each took two integers'
    /// descriptions and an interpolation (Benchmarks/History/67).
    static func rating(_ rating: Double) -> String {
        let tenths = Int((rating * 10).rounded())
        return tenths >= 0 && tenths < ratings.count ? ratings[tenths] : formatted(tenths: tenths)
    }

    /// A cell's rating line, a star and ``rating(_:)``: "★ 7.9".
    static func starredRating(_ rating: Double) -> String {
        let tenths = Int((rating * 10).rounded())
        return tenths >= 0 && tenths < starredRatings.count
            ? starredRatings[tenths] : "★ " + formatted(tenths: tenths)
    }

    /// `tenths` tenths with one decimal, worked out.
    static func formatted(tenths: Int) -> String { "\(tenths / 10).\(tenths % 10)" }

    /// ``rating(_:)`` of 0 to 10 by tenths, and the same with the star (small strings: the table holds no storage).
    private static let ratings = (0...100).map { formatted(tenths: $0) }
    private static let starredRatings = ratings.map { "★ " + $0 }
}
