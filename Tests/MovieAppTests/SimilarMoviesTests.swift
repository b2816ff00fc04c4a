import Foundation
import Testing

@testable import MovieApp

/// The "More like this" strip reads its candidates a few at a time and picks what reading them one by one picked.
@Suite struct SimilarMoviesTests {
    /// What the strip showed when it read each candidate on its own: the first movies after `movieID` (then from the
    /// first ids) sharing a genre with it.
    private static func oneByOne(to movieID: Int, in store: any MovieStore) -> [Movie] {
        guard let movie = try? store.movie(id: movieID) else { return [] }
        let genres = Set(movie.genres)
        var found: [Movie] = []
        for offset in 1...MoreLikeThisBinder.reach where found.count < MoreLikeThisBinder.count {
            for id in [movieID + offset, offset] where id != movieID && found.count < MoreLikeThisBinder.count {
                guard !found.contains(where: { $0.id == id }) else { continue }
                if let other = try? store.movie(id: id), !genres.isDisjoint(with: other.genres) { found.append(other) }
            }
        }
        return found
    }

    /// The movie and its candidates are read in one go: a store checks its cache once for all of them.
    @Test func theStripPicksWhatReadingOneByOnePickedInOneReadOfTheStore() throws {
        let folder = try TemporaryFolder()
        let catalog = folder.path("catalog.json")
        try CatalogGenerator.catalog(count: 120).write(to: URL(fileURLWithPath: catalog))
        let base = try SQLiteMovieStore(path: folder.path("movies.sqlite"), seedingFrom: catalog)
        for movieID in [1, 2, 5, 7, 40, 41, 60, 119, 120, 121] {
            let store = CountingMovieStore(base)
            let similar = MoreLikeThisBinder.similarMovies(to: movieID, in: store)
            #expect(similar == Self.oneByOne(to: movieID, in: base), "movie \(movieID)")
            #expect(similar.count <= MoreLikeThisBinder.count)
            #expect(store.singleReads.withLock { $0 } == 0, "movie \(movieID)")
            #expect(store.batchReads.withLock { $0 } == 1, "movie \(movieID)")
        }
    }

    /// An id no movie has: no similar movies, after the one read that found none (none for an id below 1).
    @Test func aMovieThatCannotBeReadHasNoSimilarMovies() throws {
        let folder = try TemporaryFolder()
        let catalog = folder.path("catalog.json")
        try CatalogGenerator.catalog(count: 12).write(to: URL(fileURLWithPath: catalog))
        let base = try SQLiteMovieStore(path: folder.path("movies.sqlite"), seedingFrom: catalog)
        for movieID in [0, -3, 13, 500] {
            let store = CountingMovieStore(base)
            #expect(MoreLikeThisBinder.similarMovies(to: movieID, in: store).isEmpty, "movie \(movieID)")
            #expect(store.batchReads.withLock { $0 } == (movieID >= 1 ? 1 : 0), "movie \(movieID)")
        }
    }
}
