import ViewKit

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
        // Written as UTF-8 straight into the string's storage, counted exactly beforehand (the label keeps the string
        // as long as the screen lives): every screen of a movie reads it on every change, and joining strings
        // would check grapheme boundaries at each non-ASCII " · ".
        let minutes = movie.runtimeMinutes
        let runtimeCount =
            minutes >= 60
            ? UTF8Writer.decimalCount(minutes / 60) + 3 + UTF8Writer.decimalCount(minutes % 60)
            : UTF8Writer.decimalCount(minutes)
        let genresCount = movie.genres.enumerated().reduce(0) { $0 + ($1.offset == 0 ? 4 : 2) + $1.element.utf8.count }
        let count = UTF8Writer.decimalCount(movie.year) + 4 + runtimeCount + 4 + genresCount
        return String(unsafeUninitializedCapacity: count) { storage in
            var line = UTF8Writer(storage)
            line.append(movie.year)
            line.append(" · ")
            if minutes >= 60 {
                line.append(minutes / 60)
                line.append(" h ")
                line.append(minutes % 60)
            } else {
                line.append(minutes)
            }
            line.append(" min")
            for (index, genre) in movie.genres.enumerated() {
                line.append(index == 0 ? " · " : ", ")
                line.append(utf8Of: genre)
            }
            return line.count
        }
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
        // Every screen of a movie makes it on each change of the movie: written once, not interpolated.
        let (whole, tenth) = (tenths / 10, tenths % 10)
        return String(unsafeUninitializedCapacity: UTF8Writer.decimalCount(whole) + 1 + UTF8Writer.decimalCount(tenth))
        {
            var writer = UTF8Writer($0)
            writer.append(whole)
            writer.append(".")
            writer.append(tenth)
            return writer.count
        }
    }
}
