import Foundation
import Screenplay
import ScreenplayTesting
import Testing
import ViewKit

@testable import MovieApp

@Suite("MovieEdit: the form, its validation and the version check")
struct MovieEditTests {
    @Test("an invalid year shows its error only once the field was changed, and Save does not write")
    func invalidYear() throws {
        let screens = try MovieScreens()
        let harness = try screens.edit(1)
        #expect(!harness.screenHTML.contains("field-error"))
        harness.type("year", "3000")
        harness.advance(by: .milliseconds(150))
        #expect(harness.screenHTML.contains("The year must be a whole number from 1870 to 2100."))
        #expect(harness.tap("save"))
        #expect(try screens.store.movie(id: 1)?.year == 1987)
        #expect(harness.screenHTML.contains("The movie was not saved"))
        #expect(harness.navigations.isEmpty)
    }
}

@Suite("MovieEdit: typing, saving, stale saves, and the list's search")
struct MovieFormFlowTests {
    @Test("typing reaches the screen once the debounce has passed: nothing at 149 ms, one event at 150 ms")
    func debounceInVirtualTime() throws {
        let harness = try MovieScreens().edit(1)
        harness.type("title", "M")
        harness.advance(by: .milliseconds(100))
        harness.type("title", "Ma")
        harness.advance(by: .milliseconds(149))
        #expect(harness.inputEvents.isEmpty)
        harness.advance(by: .milliseconds(1))
        #expect(harness.inputEvents.map(\.value) == ["Ma"])
        #expect(harness.inputEvents.first?.time == .milliseconds(250))
        harness.advance(by: .seconds(1))
        #expect(harness.inputEvents.count == 1)
    }

    @Test("Save writes through the store with the typed values and goes back to the movie")
    func saveWrites() throws {
        let screens = try MovieScreens()
        let harness = try screens.edit(1)
        harness.type("title", "The Lighthouse Auditor")
        harness.type("genres", "Drama, Mystery ,")
        harness.advance(by: .milliseconds(150))
        harness.type("rating", "8.25")  // not yet sent: the form carries it
        #expect(harness.tap("save"))
        let movie = try #require(try screens.store.movie(id: 1))
        #expect(movie.title == "The Lighthouse Auditor")
        #expect(movie.genres == ["Drama", "Mystery"])
        #expect(movie.rating == 8.3)
        #expect(harness.navigations == ["/movies/1"])
    }

    @Test("an edit made meanwhile is not overwritten: the stale save says so and shows the current values")
    func staleSave() throws {
        let screens = try MovieScreens()
        let harness = try screens.edit(1)
        harness.type("title", "Mine")
        harness.advance(by: .milliseconds(150))
        _ = try screens.store.update(id: 1, with: MoviePatch(title: "Theirs"))
        harness.clearEvents()
        #expect(harness.tap("save"))
        #expect(try screens.store.movie(id: 1)?.title == "Theirs")
        #expect(harness.navigations.isEmpty)
        assertSnapshot(of: harness.screenHTML, as: .html, named: "staleScreen")
        assertSnapshot(of: harness.eventStreamText, as: .lines, named: "stalePatch")
        // Saved again, from the current values, it writes.
        harness.type("year", "1988")
        #expect(harness.tap("save"))
        #expect(try screens.store.movie(id: 1)?.year == 1988)
        #expect(try screens.store.movie(id: 1)?.title == "Theirs")
    }

    @Test("the edit screen, valid and invalid, and the patch an invalid field sends")
    func snapshots() throws {
        let harness = try MovieScreens().edit(2)
        assertSnapshot(of: harness.screenHTML, as: .html, named: "valid")
        harness.clearEvents()
        harness.type("runtime", "0")
        harness.advance(by: .milliseconds(150))
        assertSnapshot(of: harness.eventStreamText, as: .lines, named: "invalidPatch")
        harness.clearEvents()
        #expect(harness.tap("save"))
        assertSnapshot(of: harness.screenHTML, as: .html, named: "invalidSaved")
        assertSnapshot(of: harness.eventStreamText, as: .lines, named: "invalidSavePatch")
    }

    @Test("the list's search filters by title and genre as you type, and the URL follows")
    func search() throws {
        let screens = try MovieScreens()
        let all = try screens.store.allMovies()
        let harness = try screens.list(url: "/?q=DRAMA")
        let dramas = all.filter { $0.genres.contains("Drama") || $0.title.lowercased().contains("drama") }
        #expect(harness.onScreen(MovieListViewController.self) { $0.moviesList.visibleCells.count } == dramas.count)
        #expect(harness.screenHTML.contains("value=\"DRAMA\""))
        let title = try #require(all.first { !$0.genres.contains("Drama") }?.title)
        let query = String(title.prefix(6)).lowercased()
        harness.type("q", query)
        harness.advance(by: .milliseconds(150))
        let expected = all.filter { MovieListData.movie($0, matches: query) }
        #expect(harness.onScreen(MovieListViewController.self) { $0.moviesList.visibleCells.count } == expected.count)
        #expect(harness.events.contains(.url(MovieListData.url(path: "/", query: query))))
        harness.type("q", "zzzz-nothing")
        harness.advance(by: .milliseconds(150))
        #expect(harness.screenHTML.contains("No movie matches “zzzz-nothing”."))
        harness.type("q", "")
        harness.advance(by: .milliseconds(150))
        #expect(harness.events.last == .url("/"))
        #expect(harness.onScreen(MovieListViewController.self) { $0.moviesList.visibleCells.count } == all.count)
    }
}
