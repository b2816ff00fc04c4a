import Foundation
import Reactive
import ScreenplayTesting
import TestSupport
import Testing

@testable import MovieApp

/// The MovieDetail page in each of its states, and the patch stream its changes send.
@Suite("MovieDetail snapshots")
struct MovieDetailSnapshotTests {
    @Test func loadedPageShowsTheWholeMovie() throws {
        let screens = try MovieScreens()
        let harness = try screens.detail(1)
        defer { harness.end() }
        assertSnapshot(of: harness.page, as: .html)
    }

    @Test func loadingPageShowsThePlaceholderAndStatus() throws {
        let screens = try MovieScreens()
        let harness = try screens.detail(driver: StubMovieDetailDriver(.loading))
        defer { harness.end() }
        assertSnapshot(of: harness.screenHTML, as: .html)
    }

    @Test func refreshingPageKeepsTheMovieAndSaysItIsRefreshing() throws {
        let screens = try MovieScreens()
        let harness = try screens.detail(1)
        defer { harness.end() }
        #expect(harness.tap("refresh"))
        // The re-read waits on the test scheduler, so the page is caught in between.
        assertSnapshot(of: harness.screenHTML, as: .html)
        screens.readScheduler.start()
        harness.settle()
        assertSnapshot(of: harness.screenHTML, as: .html)
    }

    @Test func failingStoreShowsTheErrorStateNotACrash() throws {
        let screens = try MovieScreens()
        let harness = try screens.detail(1, store: FailingMovieStore())
        defer { harness.end() }
        assertSnapshot(of: harness.screenHTML, as: .html)
    }

    @Test func movieWithoutTipsSaysSo() throws {
        let screens = try MovieScreens()
        #expect(try screens.store.movie(id: 21)?.tips == [])
        let harness = try screens.detail(21)
        defer { harness.end() }
        assertSnapshot(of: harness.screenHTML, as: .html)
    }

    @Test func titleFullOfMarkupIsEscapedEverywhere() throws {
        var movie = try #require(try MovieScreens().store.movie(id: 1))
        movie.title = #"<script>alert("x")</script> & "quotes""#
        let screens = try MovieScreens(movies: [movie])
        let harness = try screens.detail(1)
        defer { harness.end() }
        let page = harness.page
        #expect(!page.contains("<script>alert"))
        assertSnapshot(of: page, as: .html)
    }

    @Test func ratingChangeStreamsOnePatchOfTheRatingLabel() throws {
        let screens = try MovieScreens()
        let harness = try screens.detail(1)
        defer { harness.end() }
        harness.clearEvents()
        _ = try screens.store.update(id: 1, with: MoviePatch(rating: 9.1))
        #expect(eventually { !harness.events.isEmpty })
        harness.settle()
        assertSnapshot(of: harness.eventStreamText, as: .lines)
    }

    @Test func refreshStreamsTheRefreshingStateThenTheReReadMovie() throws {
        let screens = try MovieScreens()
        let harness = try screens.detail(1)
        defer { harness.end() }
        harness.clearEvents()
        harness.tap("refresh")
        screens.readScheduler.start()
        harness.settle()
        assertSnapshot(of: harness.eventStreamText, as: .lines)
    }
}
