import ScreenplayTesting
import Testing

@testable import MovieApp

/// The page for an unknown address: a screen of its own with a way back.
@Suite("NotFound screen")
struct NotFoundScreenTests {
    @Test func unknownAddressShowsWhatWasNotFoundAndAWayBack() throws {
        let harness = try ScreenHarness(
            templates: MovieScreens.templates, views: MovieServer.register, url: "/movies/<b>999</b>"
        ) { request in
            NotFoundViewController.make(request: request)
        }
        defer { harness.end() }
        assertSnapshot(of: harness.screenHTML, as: .html)
        #expect(harness.tap("back"))
        #expect(harness.navigations == ["/"])
    }

    @Test func unknownMovieIdIsNotAMovieDetailScreen() throws {
        let screens = try MovieScreens()
        #expect(throws: (any Error).self) { try screens.detail(999) }
        #expect(throws: (any Error).self) { try screens.detail(-1) }
    }
}
