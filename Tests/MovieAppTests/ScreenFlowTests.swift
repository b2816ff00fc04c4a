import Screenplay
import ScreenplayTesting
import Testing

@testable import MovieApp

/// `ScreenFlow` over the app's screens: list → detail → the detail's Back, Back and Forward, edit → Save, each step a
/// screen built from its URL and the one left ended, as the browser's client moves between them in place.
@Suite struct ScreenFlowTests {
    @Test("a link, then the detail's Back goes back to the list's entry: a fresh list, the detail ended")
    func linkThenBack() throws {
        let screens = try MovieScreens()
        let flow = screens.flow()
        let list = try flow.open("/")
        #expect(list.page.contains("<h1>Movies</h1>"))
        let detail = try flow.open("/movies/1")
        #expect(list.page.isEmpty, "the list's screen ended when the flow left it")
        #expect(detail.page.contains("The Lighthouse Accountant"))
        #expect(flow.history.urls == ["/", "/movies/1"])

        #expect(detail.tap("back"))
        let again = try flow.follow()
        #expect(detail.page.isEmpty)
        #expect(again !== list, "the list is built again from its URL")
        #expect(flow.url == "/")
        #expect(flow.history.urls == ["/", "/movies/1"], "Back to the entry behind, not a new entry")
        #expect(flow.canGoForward && !flow.canGoBack)

        let forward = try flow.forward()
        #expect(forward.page.contains("The Lighthouse Accountant"))
        #expect(flow.url == "/movies/1")
    }

    @Test("on a movie opened directly, its Back opens the list in a new entry")
    func backFromADirectlyOpenedMovie() throws {
        let flow = try MovieScreens().flow()
        let detail = try flow.open("/movies/2")
        #expect(detail.tap("back"))
        try flow.follow()
        #expect(flow.history.urls == ["/movies/2", "/"])
        #expect(flow.history.index == 1)
    }

    @Test("edit → Save lands on the movie's entry behind it, built again with the saved title")
    func editSaveLandsOnTheFreshMovie() throws {
        let screens = try MovieScreens()
        let flow = screens.flow()
        try flow.open("/movies/3")
        let edit = try flow.open("/movies/3/edit")
        edit.type("title", "Paper Orchard Returns")
        #expect(edit.tap("save"))
        let movie = try flow.follow()
        #expect(flow.history.urls == ["/movies/3", "/movies/3/edit"])
        #expect(flow.url == "/movies/3")
        #expect(movie.page.contains("Paper Orchard Returns"))
    }

    @Test("what the flow cannot do is an error saying what to do, and changes nothing")
    func mistakes() throws {
        let flow = try MovieScreens().flow()
        // Nothing opened yet: no current screen, and saying so fails the test, not the process.
        #expect(throws: ScreenFlowError.self) { try flow.current }
        let list = try flow.open("/")
        #expect(throws: ScreenFlowError.self) { try flow.back() }
        #expect(throws: ScreenFlowError.self) { try flow.forward() }
        #expect(throws: ScreenFlowError.self) { try flow.follow() }
        #expect(throws: ScreenFlowError.self) { try flow.open("/nowhere") }
        #expect(flow.history.urls == ["/"])
        #expect(try flow.current === list)
        #expect(!list.page.isEmpty)
    }
}
