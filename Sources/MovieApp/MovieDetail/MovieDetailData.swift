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

    static func rating(_ rating: Double) -> String {
        let tenths = Int((rating * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
