import Foundation
import Screenplay
import ScreenplayTesting
import TestSupport
import Testing

@Suite struct LoggingTests {
    @Test func everyRequestGetsOneLineWithItsRouteStatusAndRequestID() throws {
        let app = try OperationsTestApp()
        defer { app.stop() }
        _ = try app.client.get("/counter?csrf=secret")
        _ = try app.client.get("/counter")
        let requests = app.log.events("request").filter { $0["route"] == "/counter" }
        #expect(requests.count == 2)
        #expect(requests.allSatisfy { $0["status"] == "200" && $0["method"] == "GET" && $0["path"] == "/counter" })
        let ids = requests.compactMap { $0["request_id"] }
        #expect(ids.count == 2 && Set(ids).count == 2 && ids.allSatisfy { !$0.isEmpty })
        // Queries may carry tokens: they never reach the log.
        #expect(!app.log.lines.contains { $0.contains("secret") })
    }

    @Test func requestLinesCanBeTurnedOff() throws {
        let app = try OperationsTestApp(accessLog: false)
        defer { app.stop() }
        _ = try app.client.get("/counter")
        #expect(app.log.events("request").isEmpty)
        #expect(app.log.events("page.rendered").count == 1)
        #expect(app.log.events("session.opened").isEmpty)
    }

    @Test func aSessionLogsOpenedAppearedAndEndedWithTheReason() throws {
        let app = try OperationsTestApp()
        defer { app.stop() }
        let page = LivePage(try app.client.get("/counter"))
        let id = try #require(page.sessionID)
        let events = try app.client.openEvents(for: page)
        defer { events.close() }
        #expect(eventually { app.log.events("session.appeared").contains { $0["session"] == id } })
        _ = try app.client.post(page.actionPath("leave")!, form: ["csrf": page.csrfToken!])
        #expect(app.log.events("session.opened").first?["session"] == id)
        #expect(app.log.events("session.opened").first?["screen"] == "CounterViewController")
        let ended = app.log.events("session.ended").first { $0["session"] == id }
        #expect(ended?["reason"] == "navigated")
    }

    @Test func sessionsEndedByExpiryEvictionAndShutdownSaySo() throws {
        var sessions = SessionConfiguration()
        sessions.capacity = 2
        sessions.timeToLive = .zero
        let app = try OperationsTestApp(sessions: sessions)
        func live() throws -> String {
            let page = LivePage(try app.client.get("/counter"))
            try makeLive(page, client: app.client, application: app.application)
            return try #require(page.sessionID)
        }
        let first = try live()
        _ = try live()
        let third = try live()
        Thread.sleep(forTimeInterval: 0.01)
        let ended = app.application.sessions.expireIdle()
        #expect(ended == 2)
        let fourth = try live()
        app.stop()
        let reasons = Dictionary(
            app.log.events("session.ended").map { ($0["session"] ?? "", $0["reason"] ?? "") },
            uniquingKeysWith: { a, _ in a })
        #expect(reasons[first] == "evicted")
        #expect(reasons[third] == "expired")
        #expect(reasons[fourth] == "shutdown")
    }

    @Test func linesBelowTheLevelAreDropped() throws {
        let app = try OperationsTestApp(operations: OperationsConfiguration(logger: Logger(level: .warning)))
        defer { app.stop() }
        _ = try app.client.get("/counter")
        #expect(app.log.lines.isEmpty)
    }

    @Test func textLinesQuoteValuesThatWouldSplitAndJSONLinesEscape() {
        let lines = LogRecorder()
        Logger(level: .info, format: .text, sink: lines.record).log(
            .info, "request", ["path": "/a b", "plain": "x", "quote": "say \"hi\""])
        Logger(level: .info, format: .json, sink: lines.record).log(.error, "screen.failed", ["error": "a\nb\"c"])
        let text = lines.lines[0]
        #expect(text.hasSuffix(" info request path=\"/a b\" plain=x quote=\"say \\\"hi\\\"\"\n"))
        let json = try? JSONSerialization.jsonObject(with: Data(lines.lines[1].utf8)) as? [String: String]
        #expect(json?["level"] == "error")
        #expect(json?["error"] == "a\nb\"c")
    }
}
