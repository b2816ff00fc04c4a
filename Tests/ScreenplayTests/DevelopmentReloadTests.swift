import Foundation
import Screenplay
import ScreenplayTesting
import TestSupport
import Testing

@Suite struct DevelopmentReloadTests {
    private static func developmentApp() throws -> OperationsTestApp {
        try OperationsTestApp(
            operations: OperationsConfiguration(isDevelopment: true, watchInterval: .milliseconds(20)),
            copyFixtures: true)
    }

    private static let editedCounter = """
        <section class="counter">
          <h2>Reloaded</h2>
          <p data-outlet="countLabel">0</p>
          <button data-outlet="incrementButton" data-action="increment">Add one</button>
          <button data-outlet="burstButton" data-action="burst">Add ten</button>
          <button data-outlet="leaveButton" data-action="leave">Leave</button>
        </section>
        """

    @Test func savingATemplateResetsOpenPagesWithTheNewTemplateAndTheSameSession() throws {
        let app = try Self.developmentApp()
        defer { app.stop() }
        let page = LivePage(try app.client.get("/counter?start=5"))
        let events = try app.client.openEvents(for: page)
        defer { events.close() }
        #expect(eventually { app.factory.appearances.load(ordering: .relaxed) == 1 })
        try app.write(Self.editedCounter, to: "Templates/Counter.html")
        // The reset of the reload (a slow machine may first deliver another, of the stream's attach).
        let reset = try #require(try events.next { $0.event == "reset" && $0.data.contains("Reloaded") })
        let payload = try JSONSerialization.jsonObject(with: Data(reset.data.utf8)) as? [String: String]
        let html = try #require(payload?["html"])
        #expect(html.contains(">Reloaded</h2>"))
        // The screen was rebuilt from its URL: the count it was opened with is still there.
        #expect(html.contains(">5</p>"))
        #expect(payload?.keys.sorted() == ["html"])
        // Same session, same token: the page's forms keep working, and the new screen answers.
        let response = try app.client.post(
            page.actionPath("increment")!, form: ["csrf": page.csrfToken!], headers: ["X-Requested-With": "fetch"])
        #expect(response.status == 204)
        #expect(try events.next { $0.event == "patch" }?.data.contains(">6</p>") == true)
        // New pages get the new template too.
        #expect(try app.client.get("/counter").text.contains(">Reloaded</h2>"))
        #expect(app.log.events("templates.reloaded").count == 1)
    }

    @Test func aBrokenTemplateIsReportedToOpenPagesAndNotUsedUntilFixed() throws {
        let app = try Self.developmentApp()
        defer { app.stop() }
        let page = LivePage(try app.client.get("/counter"))
        let events = try app.client.openEvents(for: page)
        defer { events.close() }
        #expect(eventually { app.factory.appearances.load(ordering: .relaxed) == 1 })
        let broken = Self.editedCounter.replacingOccurrences(of: "<h2>", with: "<h2 data-view=\"Nope\">")
        try app.write(broken, to: "Templates/Counter.html")
        let error = try #require(try events.next { $0.event == "dev-error" })
        let payload = try JSONSerialization.jsonObject(with: Data(error.data.utf8)) as? [String: Any]
        #expect(payload?["file"] as? String == "Templates/Counter.html")
        #expect(payload?["line"] as? Int == 2)
        #expect((payload?["message"] as? String)?.contains("unknown view class 'Nope'") == true)
        // The good templates stay in use.
        #expect(!(try app.client.get("/counter").text.contains("Reloaded")))
        // A page that connects meanwhile is told too.
        let other = LivePage(try app.client.get("/counter"))
        let otherEvents = try app.client.openEvents(for: other)
        defer { otherEvents.close() }
        #expect(try otherEvents.next { $0.event == "dev-error" } != nil)
        try app.write(Self.editedCounter, to: "Templates/Counter.html")
        #expect(try events.next { $0.event == "dev-ok" } != nil)
        #expect(try events.next { $0.event == "reset" && $0.data.contains("Reloaded") } != nil)
    }

    @Test func savingAStylesheetTellsOpenPagesToReloadIt() throws {
        let app = try Self.developmentApp()
        defer { app.stop() }
        let page = LivePage(try app.client.get("/counter"))
        let events = try app.client.openEvents(for: page)
        defer { events.close() }
        #expect(eventually { app.factory.appearances.load(ordering: .relaxed) == 1 })
        try app.write("body { color: red }", to: "Public/site.css")
        let event = try #require(try events.next { $0.event == "dev-stylesheet" })
        #expect(event.data == "/public/site.css")
    }

    @Test func withoutDevelopmentModeNothingIsWatched() throws {
        let app = try OperationsTestApp(copyFixtures: true)
        defer { app.stop() }
        try app.write(Self.editedCounter, to: "Templates/Counter.html")
        Thread.sleep(forTimeInterval: 0.2)
        #expect(!(try app.client.get("/counter").text.contains("Reloaded")))
        #expect(app.log.events("templates.reloaded").isEmpty)
    }
}
