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
        var tokens: Set<String> = []
        for _ in 0..<50 {
            let page = try app.openCounter()
            let id = try #require(page.sessionID)
            #expect(id.count == 22)
            // The page's token: a 22-character signature, then the URL it was rendered at.
            let token = try #require(page.csrfToken)
            #expect(token.count == 22 + 1 + "/counter".count)
            #expect(token.hasSuffix("./counter"))
            #expect(!token.hasPrefix(id))
            ids.insert(id)
            tokens.insert(token)
        }
        #expect(ids.count == 50)
        #expect(tokens.count == 50)
    }

    @Test func theCapEndsTheLeastRecentlyActiveSession() throws {
        var sessions = SessionConfiguration()
        sessions.capacity = 3
        let app = try TestApp(sessions: sessions)
        defer { app.application.stop() }
        let pages = try (0..<3).map { _ in try app.openCounter() }
        for page in pages { try app.makeLive(page) }
        // Touch the first, so the second is now the least recently active.
        _ = try app.client.post(
            pages[0].actionPath("increment")!, form: ["csrf": pages[0].csrfToken!],
            headers: ["X-Requested-With": "fetch"])
        try app.makeLive(try app.openCounter())
        #expect(app.application.openSessionCount == 3)
        #expect(app.application.evictedSessionCount == 1)
        #expect(app.application.sessions.session(id: pages[1].sessionID!) == nil)
        #expect(app.application.sessions.session(id: pages[0].sessionID!) != nil)
        // The evicted page's next post builds its screen again from the page's token: its state starts over.
        let evicted = try app.client.post(
            pages[1].actionPath("increment")!, form: ["csrf": pages[1].csrfToken!],
            headers: ["X-Requested-With": "fetch"])
        #expect(evicted.status == 204)
        #expect(app.factory.createdRelays.last?.value == 1)
        let kept = try app.client.post(
            pages[0].actionPath("increment")!, form: ["csrf": pages[0].csrfToken!],
            headers: ["X-Requested-With": "fetch"])
        #expect(kept.status == 204)
        #expect(app.factory.createdRelays[0].value == 2)
    }

    /// A page GET renders and keeps nothing: a flood of page loads holds no screen and ends none.
    @Test func pageLoadsKeepNoScreenAndEvictNone() throws {
        var sessions = SessionConfiguration()
        sessions.capacity = 20
        let app = try TestApp(sessions: sessions)
        defer { app.application.stop() }
        let live = try app.openCounter()
        try app.makeLive(live)
        for _ in 0..<200 { _ = try app.openCounter() }
        #expect(app.application.openSessionCount == 1)
        #expect(app.application.evictedSessionCount == 0)
        #expect(app.factory.renderDisappearances.load(ordering: .relaxed) == 201)
        #expect(app.application.sessions.session(id: live.sessionID!) != nil)
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

    /// A page GET's screen is freed before its page is answered; the attach that evicts an idle live screen pays for
    /// ending it: a flood cannot run ahead of the teardown it causes. (A screen with work queued ends after that work,
    /// without the attach waiting: `evictingABusyScreenDoesNotHoldUpTheAttachThatEvictsIt`.)
    @Test func rendersAndEvictedScreensAreFreedBeforeTheRequestThatEndedThemIsAnswered() throws {
        let freed = Atomic<Int>(0)
        let app = try appWithTrackedScreens(capacity: 5) { freed.add(1, ordering: .relaxed) }
        defer { app.application.stop() }
        for loaded in 1...25 {
            let page = LivePage(try app.client.get("/tracked"))
            let rendered = freed.load(ordering: .relaxed)
            #expect(rendered == loaded + max(0, loaded - 6))
            // The live screens idle: their streams gone and what the detach queued on them run.
            #expect(
                eventually {
                    app.application.sessions.all.allSatisfy { !$0.isConnected && $0.scheduler.isIdle }
                })
            try app.makeLive(page)
            let afterAttach = freed.load(ordering: .relaxed)
            #expect(afterAttach == loaded + max(0, loaded - 5))
        }
    }

    /// A busy screen is not waited for: with one I/O thread, an attach waiting behind the evicted screen's queue would
    /// hold every request (here the attach itself times out).
    @Test func evictingABusyScreenDoesNotHoldUpTheAttachThatEvictsIt() throws {
        let freed = Atomic<Int>(0)
        var sessions = SessionConfiguration()
        sessions.capacity = 1
        let app = try TestApp(sessions: sessions, start: false, threadCount: 1)
        try app.application.screen("/tracked", CounterViewController.self) { request in
            app.factory.make(request, onDeinit: { freed.add(1, ordering: .relaxed) })
        }
        try app.application.start()
        defer { app.application.stop() }
        let session = try app.makeLive(LivePage(try app.client.get("/tracked")))
        let second = LivePage(try app.client.get("/tracked"))
        let rendered = freed.load(ordering: .relaxed)
        #expect(rendered == 2)
        try whileBusy({ session.scheduler.schedule($0) }) {
            let client = LiveClient(port: app.application.port, timeout: 2, sameBrowserAs: app.client)
            let shared = try client.openSharedStream()
            defer { shared.close() }
            #expect(try client.attach(second, to: shared.id).status == 204)
            #expect(app.application.evictedSessionCount == 1)
            let whileBusy = freed.load(ordering: .relaxed)
            #expect(whileBusy == 2)
        }
        // Ended once its queued work has run.
        #expect(eventually { freed.load(ordering: .relaxed) == 3 })
    }

    @Test func endedSessionsAreFreed() throws {
        let freed = Atomic<Int>(0)
        let app = try appWithTrackedScreens(capacity: 5) { freed.add(1, ordering: .relaxed) }
        defer { app.application.stop() }
        for _ in 0..<25 { try app.makeLive(LivePage(try app.client.get("/tracked"))) }
        // 25 renders, and the 20 live screens the cap ended.
        #expect(eventually { freed.load(ordering: .relaxed) == 45 })
        app.application.stop()
        #expect(eventually { freed.load(ordering: .relaxed) == 50 })
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
