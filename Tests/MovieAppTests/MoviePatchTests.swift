import Foundation
import MovieApp
import Testing

@Suite("MoviePatch")
struct MoviePatchTests {
    @Test("refuses an invalid body with a message naming the field", arguments: PatchRejection.all)
    func refusesInvalidBody(_ rejection: PatchRejection) {
        #expect {
            _ = try MoviePatch(json: rejection.body)
        } throws: { error in
            guard let error = error as? MoviePatchError else { return false }
            return error.field == rejection.field && error.description == rejection.message
        }
    }

    @Test func reportsWhatItFoundWhenRefusing() throws {
        do {
            _ = try MoviePatch(json: Array(#"{"rating": 11}"#.utf8))
            Issue.record("a rating of 11 was accepted")
        } catch {
            #expect(error == MoviePatchError(field: "rating", reason: "must be a number from 0 to 10"))
        }
    }

    @Test func acceptsEveryEditableField() throws {
        let body = #"""
            {"title": "Été \ud83c\udfac", "year": 2001, "runtimeMinutes": 95, "genres": ["Drama", "Music"],
             "rating": 8.4, "overview": "Line one.\nLine two.", "tips": []}
            """#
        let patch = try MoviePatch(json: Array(body.utf8))
        #expect(patch.title == "Été 🎬")
        #expect(patch.year == 2001)
        #expect(patch.runtimeMinutes == 95)
        #expect(patch.genres == ["Drama", "Music"])
        #expect(patch.rating == 8.4)
        #expect(patch.overview == "Line one.\nLine two.")
        #expect(patch.tips == [])
        #expect(!patch.isEmpty)
    }

    @Test func treatsAnEmptyObjectAsAPatchThatChangesNothing() throws {
        let patch = try MoviePatch(json: Array(" { } ".utf8))
        #expect(patch.isEmpty)
        let movie = sampleMovies(1...1)[0]
        #expect(patch.applied(to: movie) == movie)
    }

    @Test(
        "rounds ratings to one decimal",
        arguments: [("7.25", 7.3), ("7.24", 7.2), ("9.96", 10.0), ("0", 0.0), ("10", 10.0), ("0.04", 0.0), ("6", 6.0)])
    func roundsRatingsToOneDecimal(_ given: String, _ expected: Double) throws {
        let patch = try MoviePatch(json: Array(#"{"rating": \#(given)}"#.utf8))
        #expect(patch.rating == expected)
    }

    @Test func acceptsWholeNumbersWrittenWithAFraction() throws {
        let patch = try MoviePatch(json: Array(#"{"year": 2000.0, "runtimeMinutes": 1e2}"#.utf8))
        #expect(patch.year == 2000)
        #expect(patch.runtimeMinutes == 100)
    }

    @Test func acceptsTheLimitsOfEveryRange() throws {
        let longest = try MoviePatch(
            title: String(repeating: "e\u{301}", count: 200), year: 1870, runtimeMinutes: 1000,
            genres: Array(repeating: String(repeating: "g", count: 300), count: 10), rating: 10,
            overview: String(repeating: "o", count: 2000), tips: Array(repeating: "t", count: 10))
        #expect(longest.title?.count == 200)
        let shortest = try MoviePatch(title: "A", year: 2100, runtimeMinutes: 1, genres: [], rating: 0, overview: "O")
        #expect(shortest.rating == 0)
    }

    @Test func validatesValuesGivenInCode() {
        #expect(throws: MoviePatchError(field: "rating", reason: "must be a number from 0 to 10")) {
            _ = try MoviePatch(rating: .nan)
        }
        #expect(throws: MoviePatchError(field: "year", reason: "must be a whole number from 1870 to 2100")) {
            _ = try MoviePatch(year: 3000)
        }
        #expect(throws: MoviePatchError(field: "tips[1]", reason: "must be a string of 1 to 300 characters")) {
            _ = try MoviePatch(tips: ["fine", " "])
        }
    }

    @Test func replacesOnlyTheFieldsItContains() throws {
        let movie = sampleMovies(4...4)[0]
        let patch = try MoviePatch(json: Array(#"{"rating": 2.5, "tips": ["New tip"]}"#.utf8))
        var expected = movie
        expected.rating = 2.5
        expected.tips = ["New tip"]
        #expect(patch.applied(to: movie) == expected)
    }
}
