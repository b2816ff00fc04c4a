import Foundation
import Screenplay
import ScreenplayTesting
import Testing

private struct DriverFailure: Error, CustomStringConvertible {
    var description: String { "database password is hunter2" }
}

@Suite struct ErrorPageTests {
    @Test func inProductionAFailingScreenGetsAPlainPageWithTheRequestIDThatIsAlsoLogged() throws {
        let app = try OperationsTestApp(factory: { _ in throw DriverFailure() })
        defer { app.stop() }
        let response = try app.client.get("/counter")
        #expect(response.status == 500)
        #expect(!response.text.contains("hunter2"))
        #expect(!response.text.contains("CounterViewController"))
        let failure = try #require(app.log.events("screen.failed").first)
        let id = try #require(failure["request_id"])
        #expect(response.text.contains("Request id: \(id)."))
        #expect(failure["screen"] == "CounterViewController")
        #expect(failure["error"] == "database password is hunter2")
        #expect(app.log.events("request").first { $0["request_id"] == id }?["status"] == "500")
    }

    @Test func inDevelopmentTheErrorPageShowsTheErrorScreenTemplateAndLifecycleSteps() throws {
        let app = try OperationsTestApp(
            operations: OperationsConfiguration(isDevelopment: true), factory: { _ in throw DriverFailure() })
        defer { app.stop() }
        let response = try app.client.get("/counter?start=<b>")
        #expect(response.status == 500)
        let html = response.text
        #expect(html.contains("database password is hunter2"))
        #expect(html.contains("<dd>CounterViewController</dd>"))
        #expect(html.contains("Templates/Counter.html"))
        #expect(html.contains("<li>route /counter matched /counter</li>"))
        #expect(html.contains("<li class=\"failed\">factory of CounterViewController</li>"))
        // What the request carried is escaped.
        #expect(html.contains("/counter?start=&lt;b&gt;"))
    }
}
