import MovieApp
import Testing

@Suite struct MovieDetailDataTests {
    private func data(runtime: Int, genres: [String], rating: Double = 7.85) -> MovieDetailData {
        var movie = sampleMovies(1...1)[0]
        movie.year = 2019
        movie.runtimeMinutes = runtime
        movie.genres = genres
        movie.rating = rating
        return MovieDetailData(movie: movie, phase: .loaded)
    }

    @Test(arguments: [
        (112, ["Drama", "Mystery"], "2019 · 1 h 52 min · Drama, Mystery"),
        (60, ["Drama"], "2019 · 1 h 0 min · Drama"),
        (48, [], "2019 · 48 min"),
        (0, ["A", "B", "C"], "2019 · 0 min · A, B, C"),
        (6_039, ["Ciné-vérité", "Кино", "ドラマ"], "2019 · 100 h 39 min · Ciné-vérité, Кино, ドラマ"),
    ])
    func subtitleJoinsYearRuntimeAndGenres(runtime: Int, genres: [String], expected: String) {
        #expect(data(runtime: runtime, genres: genres).subtitle == expected)
    }

    /// The subtitle is written into storage counted beforehand: numbers of every length and sign fit exactly.
    @Test func subtitleCountsNumbersOfAnyLength() {
        var movie = sampleMovies(1...1)[0]
        movie.genres = ["Épopée"]
        for (year, runtime, expected) in [
            (-44, 59, "-44 · 59 min · Épopée"), (0, 60, "0 · 1 h 0 min · Épopée"),
            (Int.min, Int.max, "\(Int.min) · \(Int.max / 60) h \(Int.max % 60) min · Épopée"),
        ] {
            movie.year = year
            movie.runtimeMinutes = runtime
            #expect(MovieDetailData(movie: movie, phase: .loaded).subtitle == expected)
        }
    }

    @Test func withoutAMovieTheLinesArePlaceholders() {
        #expect(MovieDetailData.loading.subtitle == "")
        #expect(MovieDetailData.loading.ratingText == "–")
        #expect(MovieDetailData.loading.statusText == "Loading…")
    }

    @Test func ratingHasOneDecimal() {
        #expect(data(runtime: 90, genres: [], rating: 7.85).ratingText == "7.9")
        #expect(data(runtime: 90, genres: [], rating: 10).ratingText == "10.0")
        // Written into storage counted beforehand: every whole part and tenth, and a rounding that carries.
        for (rating, text) in [(0.0, "0.0"), (0.04, "0.0"), (0.05, "0.1"), (3.1, "3.1"), (9.95, "10.0"), (5.5, "5.5")] {
            #expect(data(runtime: 90, genres: [], rating: rating).ratingText == text, "\(rating)")
        }
    }
}
