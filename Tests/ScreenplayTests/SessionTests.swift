import Dispatch
import Foundation
import HTTPServer
import Reactive
import Screenplay
import ScreenplayTesting
import Synchronization
import TestSupport
import Testing

@Suite struct SessionTests {
    @Test func sessionIdsAndTokensAreLongRandomAndDistinct() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        var ids: Set<String> = []
        for _ in 0..<50 {
            let page = try app.openCounter()
            let id = try #require(page.sessionID)
            #expect(id.count == 22)
            #expect(page.csrfToken?.count == 22)
            #expect(page.csrfToken != id)
            ids.insert(id)
        }
        #expect(ids.count == 50)
    }

    @Test func theCapEndsTheLeastRecentlyActiveSession() throws {
        var sessions = SessionConfiguration()
        sessions.capacity = 3
        let app = try TestApp(sessions: sessions)
        defer { app.application.stop() }
        let pages = try (0..<3).map { _ in try app.openCounter() }
        // Touch the first, so the second is now the least recently active.
        _ = try app.client.post(
            pages[0].actionPath("increment")!, form: ["csrf": pages[0].csrfToken!],
            headers: ["X-Requested-With": "fetch"])
        _ = try app.openCounter()
        #expect(app.application.openSessionCount == 3)
        #expect(app.application.evictedSessionCount == 1)
        let evicted = try app.client.post(
            pages[1].actionPath("increment")!, form: ["csrf": pages[1].csrfToken!],
            headers: ["X-Requested-With": "fetch", "Referer": "http://127.0.0.1/counter"])
        #expect(evicted.status == 303)
        let kept = try app.client.post(
            pages[0].actionPath("increment")!, form: ["csrf": pages[0].csrfToken!],
            headers: ["X-Requested-With": "fetch"])
        #expect(kept.status == 204)
    }

    @Test func aMillionGetsWouldStayWithinTheCap() throws {
        var sessions = SessionConfiguration()
        sessions.capacity = 20
        let app = try TestApp(sessions: sessions)
        defer { app.application.stop() }
        for _ in 0..<200 { _ = try app.openCounter() }
        #expect(app.application.openSessionCount == 20)
        #expect(app.application.evictedSessionCount == 180)
    }

    /// A started app whose `/tracked` screens call `onDeinit` when their view controller is freed.
    private func appWithTrackedScreens(capacity: Int, onDeinit: @escaping @Sendable () -> Void) throws -> TestApp {
        var sessions = SessionConfiguration()
        sessions.capacity = capacity
        let app = try TestApp(sessions: sessions, start: false)
        try app.application.screen("/tracked", CounterViewController.self) { request in
            app.factory.make(request, onDeinit: onDeinit)
        }
        try app.application.start()
        return app
    }

    /// The page load that evicts a session pays for ending it: a flood cannot run ahead of the teardown it causes.
    @Test func anEvictedSessionIsFreedBeforeThePageThatEvictedItIsAnswered() throws {
        let freed = Atomic<Int>(0)
        let app = try appWithTrackedScreens(capacity: 5) { freed.add(1, ordering: .relaxed) }
        defer { app.application.stop() }
        for loaded in 1...25 {
            #expect(try app.client.get("/tracked").status == 200)
            #expect(freed.load(ordering: .relaxed) == max(0, loaded - 5))
        }
    }

    /// A busy screen is not waited for: with one I/O thread, a page load waiting behind the evicted screen's queue
    /// would hold every request (here the page itself times out).
    @Test func evictingABusyScreenDoesNotHoldUpThePageThatEvictsIt() throws {
        let freed = Atomic<Int>(0)
        var sessions = SessionConfiguration()
        sessions.capacity = 1
        let app = try TestApp(sessions: sessions, start: false, threadCount: 1)
        try app.application.screen("/tracked", CounterViewController.self) { request in
            app.factory.make(request, onDeinit: { freed.add(1, ordering: .relaxed) })
        }
        try app.application.start()
        defer { app.application.stop() }
        let first = LivePage(try app.client.get("/tracked"))
        let session = try #require(app.application.sessions.session(id: first.sessionID!))
        try whileBusy({ session.scheduler.schedule($0) }) {
            let evicting = try LiveClient(port: app.application.port, timeout: 2).get("/tracked")
            #expect(evicting.status == 200)
            #expect(app.application.evictedSessionCount == 1)
            #expect(freed.load(ordering: .relaxed) == 0)
        }
        // Ended once its queued work has run.
        #expect(eventually { freed.load(ordering: .relaxed) == 1 })
    }

    @Test func endedSessionsAreFreed() throws {
        let freed = Atomic<Int>(0)
        let app = try appWithTrackedScreens(capacity: 5) { freed.add(1, ordering: .relaxed) }
        defer { app.application.stop() }
        for _ in 0..<25 { #expect(try app.client.get("/tracked").status == 200) }
        #expect(eventually { freed.load(ordering: .relaxed) == 20 })
        app.application.stop()
        #expect(eventually { freed.load(ordering: .relaxed) == 25 })
    }
}

@Suite struct SessionExpiryTests {
    @Test func idleSessionsWithoutAStreamExpireAfterTheirTimeToLive() throws {
        let clock = ManualClock()
        var configuration = SessionConfiguration()
        configuration.timeToLive = .seconds(60)
        let registry = SessionRegistry(configuration: configuration, now: { clock.now })
        let harness = SessionHarness(registry: registry)
        let idle = harness.open()
        let connected = harness.open(connected: true)
        clock.advance(seconds: 30)
        #expect(registry.expireIdle() == 0)
        _ = registry.session(id: idle.id)
        clock.advance(seconds: 45)
        #expect(registry.expireIdle() == 0)
        clock.advance(seconds: 16)
        #expect(registry.expireIdle() == 1)
        #expect(registry.session(id: idle.id) == nil)
        #expect(registry.session(id: connected.id) != nil)
        #expect(harness.ended(idle))
        #expect(!harness.ended(connected))
    }

    @Test func activityOrderEvictsTheOldestFirst() {
        var order = ActivityOrder()
        order.touch("a")
        order.touch("b")
        order.touch("c")
        order.touch("a")
        #expect(order.oldest == "b")
        order.remove("b")
        #expect(order.oldest == "c")
        order.remove("c")
        order.remove("a")
        #expect(order.oldest == nil)
        order.touch("d")
        #expect(order.oldest == "d")
    }
}
