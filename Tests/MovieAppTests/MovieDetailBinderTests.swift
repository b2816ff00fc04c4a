import Foundation
import ScreenplayTesting
import TestSupport
import Testing
import ViewKit

@testable import MovieApp

/// The seed's binder at work in a screen harness: actions reach the driver, driver data reaches the views.
@Suite("MovieDetail binder")
struct MovieDetailBinderTests {
    @Test func tappingBackCallsCloseOnTheDriver() throws {
        let driver = StubMovieDetailDriver(.loading)
        let harness = try MovieScreens().detail(driver: driver)
        defer { harness.end() }
        #expect(harness.tap("back"))
        #expect(driver.closeCount == 1)
        #expect(driver.refreshCount == 0)
    }

    @Test func tappingRefreshCallsRefreshOnTheDriver() throws {
        let driver = StubMovieDetailDriver(.loading)
        let harness = try MovieScreens().detail(driver: driver)
        defer { harness.end() }
        #expect(harness.tap("refresh"))
        #expect(driver.refreshCount == 1)
        #expect(driver.closeCount == 0)
    }

    @Test func theBinderHoldsItsDriverAsAReference() {
        // The binder, and the closures `driver.close` and `driver.refresh` it binds, keep the driver for the screen's
        // life: a class-bound protocol's existential is two words where another's is five.
        #expect(MemoryLayout<any MovieDetailDriving>.size == 2 * MemoryLayout<AnyObject>.size)
    }

    @Test func aLiveScreensBagsKeepTheirSubscriptionsAsObjects() throws {
        // Once the screen is built its bags are compacted: every item an object, each two words where an existential
        // of any disposable takes five; the "More like this" child's bag too.
        let harness = try MovieScreens().detail(1)
        defer { harness.end() }
        let word = MemoryLayout<Int>.size
        let bags = harness.onScreen(MovieDetailViewController.self) { viewController in
            ([viewController] + viewController.children).map { ($0.bag.contents.count, $0.bag.elementBytes) }
        }
        #expect(bags.count == 2)
        for (count, bytes) in bags {
            #expect(count > 0)
            #expect(bytes == count * 2 * word)
        }
    }

    @Test func tappingBackNavigatesToTheList() throws {
        let harness = try MovieScreens().detail(1)
        defer { harness.end() }
        #expect(harness.tap("back"))
        #expect(harness.navigations == ["/"])
    }

    @Test func appearingHidesTheNavigationBar() throws {
        let harness = try MovieScreens().detail(1)
        defer { harness.end() }
        let navigationBar = try #require(harness.page.firstLine(containing: "navigation-bar"))
        #expect(navigationBar.contains(" hidden"))
    }

    @Test func refreshShowsRefreshingThenTheReReadMovie() throws {
        let screens = try MovieScreens()
        let harness = try screens.detail(1)
        defer { harness.end() }
        #expect(!harness.screenHTML.contains("Refreshing…"))
        harness.tap("refresh")
        #expect(harness.screenHTML.contains("Refreshing…"))
        #expect(harness.screenHTML.contains("The Lighthouse Accountant"))
        screens.readScheduler.start()
        harness.settle()
        #expect(!harness.screenHTML.contains("Refreshing…"))
        #expect(harness.screenHTML.contains("The Lighthouse Accountant"))
    }

    @Test func refreshReadsWhatTheStoreHoldsNow() throws {
        // A second store object on the same file changes the movie without telling this one's change feed:
        // only the re-read can show it.
        let screens = try MovieScreens()
        let other = try SQLiteMovieStore(path: screens.folder.path("movies.sqlite"))
        let harness = try screens.detail(1)
        defer { harness.end() }
        _ = try other.update(id: 1, with: MoviePatch(title: "Renamed Elsewhere"))
        harness.settle()
        #expect(!harness.screenHTML.contains("Renamed Elsewhere"))
        harness.tap("refresh")
        screens.readScheduler.start()
        harness.settle()
        #expect(harness.screenHTML.contains("Renamed Elsewhere"))
    }

    @Test func storeChangeUpdatesTheHeaderWithOneSmallPatch() throws {
        let screens = try MovieScreens()
        let harness = try screens.detail(1)
        defer { harness.end() }
        harness.clearEvents()
        _ = try screens.store.update(id: 1, with: MoviePatch(rating: 9.1))
        #expect(eventually { !harness.patches.isEmpty })
        harness.settle()
        let patches = harness.patches
        try #require(patches.count == 1)
        try #require(patches[0].count == 1)
        guard case .replace(_, let html) = patches[0][0] else {
            Issue.record("expected a replace, got \(patches[0][0])")
            return
        }
        #expect(String(decoding: html, as: UTF8.self).contains(">9.1<"))
        #expect(html.count < 200)
        #expect(harness.screenHTML.contains(">9.1<"))
    }

    @Test func aRetitledMovieRetitlesThePageAndPosterAndARatingChangeLeavesThem() throws {
        let screens = try MovieScreens()
        let harness = try screens.detail(1)
        defer { harness.end() }
        harness.clearEvents()
        _ = try screens.store.update(id: 1, with: MoviePatch(title: "Renamed"))
        #expect(eventually { harness.events.contains(.title("Renamed · Screenplay")) })
        harness.settle()
        #expect(harness.screenHTML.contains(#"alt="Poster of Renamed""#))
        harness.clearEvents()
        _ = try screens.store.update(id: 1, with: MoviePatch(rating: 3.3))
        #expect(eventually { !harness.patches.isEmpty })
        harness.settle()
        #expect(!harness.events.contains { if case .title = $0 { true } else { false } })
        #expect(harness.screenHTML.contains(#"alt="Poster of Renamed""#))
        #expect(harness.screenHTML.contains(">3.3<"))
    }

    @Test func theSubtitleFollowsYearRuntimeAndGenresAndARatingChangeLeavesIt() throws {
        let screens = try MovieScreens()
        let harness = try screens.detail(1)
        defer { harness.end() }
        // Whether the screen shows `subtitle`, compared as bytes, as the page shows them.
        func shows(subtitle: String, after patch: MoviePatch) throws -> Bool {
            harness.clearEvents()
            _ = try screens.store.update(id: 1, with: patch)
            #expect(eventually { !harness.patches.isEmpty })
            harness.settle()
            let html = Array(harness.screenHTML.utf8)
            let wanted = Array("data-outlet=\"subtitleLabel\">\(subtitle)</p>".utf8)
            return html.indices.contains { html[$0...].starts(with: wanted) }
        }
        #expect(try shows(subtitle: "2001 · 1 h 44 min · Drama, Comedy", after: MoviePatch(year: 2001)))
        #expect(try shows(subtitle: "2001 · 59 min · Drama, Comedy", after: MoviePatch(runtimeMinutes: 59)))
        #expect(try shows(subtitle: "2001 · 59 min · Drama", after: MoviePatch(genres: ["Drama"])))
        #expect(try shows(subtitle: "2001 · 59 min · Film &lt;noir&gt;", after: MoviePatch(genres: ["Film <noir>"])))
        // "é" as one code point, then as "e" and a combining accent: other bytes on the page.
        #expect(try shows(subtitle: "2001 · 59 min · Caf\u{E9}", after: MoviePatch(genres: ["Caf\u{E9}"])))
        #expect(try shows(subtitle: "2001 · 59 min · Cafe\u{301}", after: MoviePatch(genres: ["Cafe\u{301}"])))
        #expect(try shows(subtitle: "2001 · 59 min · Cafe\u{301}", after: MoviePatch(rating: 4.4)))
        #expect(harness.screenHTML.contains(">4.4<"))
        // The rating's patch replaced the rating alone.
        let replaced = harness.patches.joined().compactMap { change -> String? in
            if case .replace(_, let html) = change { String(decoding: html, as: UTF8.self) } else { nil }
        }
        #expect(replaced.count == 1)
        #expect(replaced.allSatisfy { !$0.contains("subtitle") })
    }

    @Test func changesOfAnotherMovieSendNothing() throws {
        let screens = try MovieScreens()
        let harness = try screens.detail(1)
        defer { harness.end() }
        harness.clearEvents()
        _ = try screens.store.update(id: 2, with: MoviePatch(rating: 1.0))
        // A change of movie 1 afterwards proves the feed delivered movie 2's change first (commit order).
        _ = try screens.store.update(id: 1, with: MoviePatch(rating: 2.0))
        #expect(eventually { !harness.patches.isEmpty })
        harness.settle()
        #expect(harness.patches.count == 1)
        #expect(harness.screenHTML.contains(">2.0<"))
    }
}

extension String {
    /// The first line holding `text`.
    func firstLine(containing text: String) -> String? {
        split(separator: "\n").first { $0.contains(text) }.map(String.init)
    }
}

/// Ending a screen lets go of everything it built.
@Suite("MovieDetail teardown")
struct MovieDetailTeardownTests {
    @Test func endingTheScreenReleasesItsViewControllerAndViews() throws {
        let screens = try MovieScreens()
        let harness = try screens.detail(1)
        let references = harness.onScreen(MovieDetailViewController.self) { viewController in
            [WeakReference(viewController), WeakReference(viewController.headerView)]
        }
        harness.end()
        harness.settle()
        #expect(references.allSatisfy { $0.isNil })
    }
}

/// A weak reference carried out of the screen's scheduler to check deallocation.
final class WeakReference: @unchecked Sendable {
    // Only tested for nil after the screen has ended; never dereferenced on another thread.
    private weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
    var isNil: Bool { object == nil }
}
