import Foundation
import Reactive
import Screenplay
import ScreenplayTesting
import Testing

/// The application and `ScreenHarness` put a screen together the same way: a harness test runs what a page runs.
@Suite struct ScreenAssemblyTests {
    @Test func aHarnessScreenAndAServedPageOfTheSameRouteRenderTheSameHTML() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let served = try app.openCounter("?start=4")
        let harness = try ScreenHarness(
            templates: fixtureTemplates, url: "/counter?start=4", parent: "/counter?from=leave", appear: false
        ) { CounterFactory().make($0) }
        defer { harness.end() }
        // The served page's session, token and client version are its own; the harness names them `test`.
        let client = try #require(served.attribute("data-client"))
        let normalized = served.html
            .replacingOccurrences(of: try #require(served.sessionID), with: "test")
            .replacingOccurrences(of: try #require(served.csrfToken), with: "test-token")
            .replacingOccurrences(of: client, with: "test")
            .replacingOccurrences(
                of: "data-render=\"\(try #require(served.renderDigest))\"", with: "data-render=\"test\"")
        #expect(normalized == harness.page)
        // The framework's own head (its stylesheet and script) is part of both.
        #expect(harness.page.contains("/screenplay/test/screenplay.js"))
    }

    @Test func aHarnessScreenHoldsWhatItsSourcesSendUntilItAppears() throws {
        let factory = CounterFactory(conflated: true)
        let harness = try ScreenHarness(templates: fixtureTemplates, url: "/counter", appear: false) {
            factory.make($0)
        }
        defer { harness.end() }
        factory.createdRelays[0].accept(9)
        harness.settle()
        // No page watches it: the change waits, unrendered, as on a served screen.
        #expect(harness.patches.isEmpty)
        #expect(!harness.screenHTML.contains(">9</p>"))
        harness.appear()
        #expect(harness.patches.count == 1)
        #expect(harness.screenHTML.contains(">9</p>"))
    }
}
