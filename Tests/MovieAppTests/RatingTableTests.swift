import Testing

@testable import MovieApp

/// A rating of the store's range is read from a table, with or without the cells' star; any other is worked out as
/// it always was.
@Suite struct RatingTableTests {
    @Test func everyTenthOfTheRangeReadsAsItIsWorkedOut() {
        for tenths in 0...100 {
            let rating = Double(tenths) / 10
            let worked = "\(tenths / 10).\(tenths % 10)"
            #expect(MovieDetailData.rating(rating) == worked)
            #expect(MovieDetailData.starredRating(rating) == "★ " + worked)
            #expect(MovieDetailData.formatted(tenths: tenths) == worked)
        }
        for (rating, text) in [(7.85, "7.9"), (0.04, "0.0"), (9.95, "10.0"), (10.04, "10.0"), (-0.04, "0.0")] {
            #expect(MovieDetailData.rating(rating) == text, "\(rating)")
            #expect(MovieDetailData.starredRating(rating) == "★ " + text, "\(rating)")
        }
    }

    @Test func aRatingOutsideTheRangeIsWorkedOut() {
        #expect(MovieDetailData.rating(10.06) == "10.1")
        #expect(MovieDetailData.starredRating(12.5) == "★ 12.5")
        #expect(MovieDetailData.rating(-0.5) == "0.-5")
        #expect(MovieDetailData.starredRating(-1.2) == "★ -1.-2")
        #expect(MovieDetailData.rating(123.4) == "123.4")
    }
}
