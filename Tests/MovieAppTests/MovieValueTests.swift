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
