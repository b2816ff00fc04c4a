import ScreenplayTesting
import Testing

@testable import MovieApp

/// The movie list page.
@Suite("MovieList snapshots")
struct MovieListSnapshotTests {
    @Test func listPageShowsEveryMovieOfTheCatalogAsALink() throws {
        let screens = try MovieScreens()
        let harness = try screens.list()
        defer { harness.end() }
        let page = harness.page
        for movie in try screens.store.allMovies() {
            #expect(page.contains("href=\"/movies/\(movie.id)\""))
        }
        assertSnapshot(of: page, as: .html)
    }

    @Test func failingStoreShowsAMessageInsteadOfTheList() throws {
        let screens = try MovieScreens()
        let harness = try screens.list(store: FailingMovieStore())
        defer { harness.end() }
        assertSnapshot(of: harness.screenHTML, as: .html)
    }
}
