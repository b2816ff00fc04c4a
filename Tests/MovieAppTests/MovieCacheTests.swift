import Foundation
import Testing

@testable import MovieApp

@Suite struct MovieCacheTests {
    private func movie(_ id: Int) -> Movie {
        Movie(
            id: id, title: "Movie \(id)", year: 2000, runtimeMinutes: 100, genres: [], rating: 5, overview: "",
            tips: [], posterUrl: nil)
    }

    /// The cache answers as a dictionary of movies by id would, whatever the ids: dense from 1, sparse, far apart,
    /// negative, stored and forgotten in any order (ids kept by position and ids in the dictionary alike).
    @Test func theCacheAnswersAsADictionaryWould() {
        var cache = MovieCache()
        var expected: [Int: Movie] = [:]
        var generator = SystemRandomNumberGenerator()
        let ids = [0, 1, 2, 3, 5, 8, 13, 1_023, 1_024, 1_025, 2_000, 4_000, 100_000, -1, -7, .max, .min]
        for step in 0..<4_000 {
            let id =
                step.isMultiple(of: 3)
                ? ids.randomElement(using: &generator)! : Int.random(in: -10...5_000, using: &generator)
            if Bool.random(using: &generator) {
                cache[id] = movie(id)
                expected[id] = movie(id)
            } else {
                cache[id] = nil
                expected[id] = nil
            }
            if step.isMultiple(of: 500) {
                cache.removeAll()
                expected = [:]
            }
            for check in ids + [id, id &+ 1, id &- 1] {
                #expect(cache[check] == expected[check], "step \(step), id \(check)")
            }
        }
        for id in -10...5_000 {
            #expect(cache[id] == expected[id], "id \(id)")
        }
    }

    /// A far id kept in the dictionary is still found when the array grows past it.
    @Test func aFarIDIsFoundWhenTheArrayGrowsPastIt() {
        var cache = MovieCache()
        cache[1_500] = movie(1_500)
        for id in 0..<1_000 { cache[id] = movie(id) }
        cache[1_600] = movie(1_600)
        #expect(cache[1_500] == movie(1_500))
        #expect(cache[1_600] == movie(1_600))
        cache[1_500] = nil
        #expect(cache[1_500] == nil)
        #expect(cache[999] == movie(999))
    }
}
