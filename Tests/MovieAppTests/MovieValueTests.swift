import Foundation
import MovieApp
import Testing

/// `Movie` keeps its text fields in a shared box; it must still behave as a plain value.
@Suite struct MovieValueTests {
    private let movie = sampleMovies(1...1)[0]

    @Test func changingACopyLeavesTheOriginalAsItWas() {
        var copy = movie
        copy.title = "Changed"
        copy.genres.append("Comedy")
        copy.overview = "Another."
        copy.tips = []
        copy.posterUrl = nil
        #expect(movie.title == "Sample 1")
        #expect(movie.genres == ["Drama"])
        #expect(movie.overview == "Overview of sample 1.")
        #expect(movie.tips == ["Tip 1"])
        #expect(movie.posterUrl == "/public/posters/1.svg")
        #expect(copy.title == "Changed" && copy.genres == ["Drama", "Comedy"] && copy.posterUrl == nil)
        #expect(copy != movie)
    }

    @Test func moviesWithTheSameFieldsAreEqualWhateverTheirBoxes() {
        let twin = Movie(
            id: movie.id, title: movie.title, year: movie.year, runtimeMinutes: movie.runtimeMinutes,
            genres: movie.genres, rating: movie.rating, overview: movie.overview, tips: movie.tips,
            posterUrl: movie.posterUrl)
        #expect(twin == movie)
        var retitled = twin
        retitled.title = "Sample 1"
        #expect(retitled == movie)
        retitled.rating += 0.1
        #expect(retitled != movie)
    }

    @Test func textsAreComparedByTheirBytes() {
        var composed = movie
        composed.title = "Caf\u{E9}"
        var decomposed = movie
        decomposed.title = "Cafe\u{301}"
        #expect(composed.title == decomposed.title)  // `String` equality: canonical equivalence
        #expect(composed != decomposed)
        for change in [
            { (movie: inout Movie) in movie.genres = ["Caf\u{E9}"] }, { $0.tips = ["Caf\u{E9}"] },
            { $0.overview = "Caf\u{E9}" }, { $0.posterUrl = "/p/caf\u{E9}.svg" },
        ] {
            var first = movie
            change(&first)
            var second = first
            second.genres = first.genres.map { $0.replacingOccurrences(of: "\u{E9}", with: "e\u{301}") }
            second.tips = first.tips.map { $0.replacingOccurrences(of: "\u{E9}", with: "e\u{301}") }
            second.overview = first.overview.replacingOccurrences(of: "\u{E9}", with: "e\u{301}")
            second.posterUrl = first.posterUrl?.replacingOccurrences(of: "\u{E9}", with: "e\u{301}")
            #expect(first != second)
        }
        var noPoster = movie
        noPoster.posterUrl = nil
        var emptyPoster = movie
        emptyPoster.posterUrl = ""
        #expect(noPoster != emptyPoster)
        #expect(noPoster == noPoster)
    }

    @Test func jsonRoundTripKeepsEveryFieldAndReadsAnAbsentPosterAsNone() throws {
        let decoded = try JSONDecoder().decode(Movie.self, from: JSONEncoder().encode(movie))
        #expect(decoded == movie)
        let withoutPoster = try JSONDecoder().decode(
            Movie.self,
            from: Data(
                #"{"id": 2, "title": "T", "year": 2000, "runtimeMinutes": 90, "genres": [], "rating": 5, "overview": "O", "tips": []}"#
                    .utf8))
        #expect(withoutPoster.posterUrl == nil)
        #expect(withoutPoster.title == "T" && withoutPoster.overview == "O")
    }
}
