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

    /// `rating` with one decimal ("7.9"), after `prefix` ("★ 7.9").
    ///
    /// Written digit by digit into the string's bytes: every cell of a strip or list and every header shows one, and
    /// an interpolation asks each part for its description and grows the string piece by piece
    /// (Benchmarks/History/44). A rating below zero (which the store refuses) reads as the interpolation wrote it.
    static func rating(_ rating: Double, prefix: String = "") -> String {
        let tenths = Int((rating * 10).rounded())
        guard tenths >= 0 else { return prefix + "\(tenths / 10).\(tenths % 10)" }
        let whole = tenths / 10
        var digits = 1
        var scale = 1
        while whole / scale >= 10 {
            scale *= 10
            digits += 1
        }
        return String(unsafeUninitializedCapacity: prefix.utf8.count + digits + 2) { bytes in
            var index = 0
            for byte in prefix.utf8 {
                bytes[index] = byte
                index += 1
            }
            var rest = whole
            var place = scale
            while place > 0 {
                bytes[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest / place)
                rest %= place
                place /= 10
                index += 1
            }
            bytes[index] = UInt8(ascii: ".")
            bytes[index + 1] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: tenths % 10)
            return index + 2
        }
    }
}
