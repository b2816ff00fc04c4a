import Foundation
import MovieApp
import TestSupport
import Testing

@Suite("Catalog generator")
struct CatalogGeneratorTests {
    @Test func aGeneratedCatalogSeedsAStoreWithEveryMovieValid() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("large.json")
        let catalog = CatalogGenerator.catalog(count: 500)
        try catalog.write(to: URL(fileURLWithPath: path))
        // Seeding checks every movie against the rules the API writes with.
        let store = try SQLiteMovieStore(path: folder.path("m.sqlite"), seedingFrom: path)
        let movies = try store.allMovies()
        #expect(movies.map(\.id) == Array(1...500))
        #expect(movies.allSatisfy { $0.rating * 10 == ($0.rating * 10).rounded() })
        // About 560 bytes a movie (some 56 MB for 100,000), and the same bytes each time.
        #expect((400...700).contains(catalog.count / 500))
        #expect(CatalogGenerator.catalog(count: 500) == catalog)
    }
}
