import Foundation
import HTTPServer
import Reactive
import Screenplay
import ScreenplayTesting
import TestSupport
import Testing

/// A page is a render, a screen is a subscription: a GET renders the page and keeps nothing but the token in it; the
/// live screen is built from that token when the page's stream attaches (or a post arrives).
@Suite struct PageTokenTests {
    /// A counter app whose screens log their lifecycle, each log named by whether the screen was made to live.
    private func lifecycleApp() throws -> (TestApp, TestMutex<[(live: Bool, log: [String])]>) {
        let logs = TestMutex<[(live: Bool, log: [String])]>([])
        let app = try TestApp(start: false)
        try app.application.screen("/logged", CounterViewController.self) { request in
            let controller = app.factory.make(request)
            let index = logs.withLock { logs in
                logs.append((request.isLive, []))
                return logs.count - 1
            }
            let note = { @Sendable (step: String) in logs.withLock { $0[index].log.append(step) } }
            controller.rx.viewDidLoad.subscribe(onNext: { note("viewDidLoad") }).disposed(by: controller.bag)
            controller.rx.viewWillAppear.subscribe(onNext: { _ in note("viewWillAppear") }).disposed(by: controller.bag)
            controller.rx.viewDidAppear.subscribe(onNext: { _ in note("viewDidAppear") }).disposed(by: controller.bag)
            controller.rx.viewWillDisappear.subscribe(onNext: { _ in note("viewWillDisappear") })
                .disposed(by: controller.bag)
            controller.rx.viewDidDisappear.subscribe(onNext: { _ in note("viewDidDisappear") })
                .disposed(by: controller.bag)
            return controller
        }
        try app.application.start()
        return (app, logs)
    }

    /// What a render-only load sees: loaded, about to appear, then the appearance cancelled (as UIKit does for an
    /// interrupted transition) and the screen ended before the page is answered; never `viewDidAppear`. The live
    /// screen its stream builds loads once and appears on connect.
    @Test func aRenderSeesLoadAndACancelledAppearanceAndTheLiveScreenAppearsOnConnect() throws {
        let (app, logs) = try lifecycleApp()
        defer { app.application.stop() }
        let page = LivePage(try app.client.get("/logged"))
        #expect(logs.withLock { $0.map(\.live) } == [false])
        #expect(
            logs.withLock { $0[0].log }
                == ["viewDidLoad", "viewWillAppear", "viewWillDisappear", "viewDidDisappear"])
        #expect(app.application.openSessionCount == 0)
        let events = try app.client.openEvents(for: page)
        defer { events.close() }
        #expect(eventually { logs.withLock { $0.count == 2 && $0[1].log.last == "viewDidAppear" } })
        #expect(logs.withLock { $0[1].live })
        #expect(logs.withLock { $0[1].log } == ["viewDidLoad", "viewWillAppear", "viewDidAppear"])
        #expect(app.application.openSessionCount == 1)
        #expect(app.application.sessions.session(id: page.sessionID!) != nil)
    }

    /// The data did not change between the render and the subscription: the page is current, and the attach sends
    /// nothing; the next change is the screen's first patch.
    @Test func anAttachToACurrentRenderSendsNothingAndLaterChangesArePatches() throws {
        let relay = BehaviorRelay(value: 7)
        let app = try TestApp(shared: relay)
        defer { app.application.stop() }
        let page = try app.openCounter()
        let events = try app.client.openEvents(for: page)
        defer { events.close() }
        relay.accept(8)
        let first = try #require(try events.next())
        #expect(first.event == "patch")
        #expect(first.number == 1)
        #expect(first.screen == page.screenID)
        #expect(first.data.contains(">8</p>"))
    }

    /// The data changed between the render and the subscription: the live screen's render differs from the page's,
    /// and the page is brought up to date before anything else, by a patch of what differs (the render is kept).
    @Test func aSubscriptionAfterTheDataChangedBringsThePageUpToDateWithAPatch() throws {
        let relay = BehaviorRelay(value: 7)
        let app = try TestApp(shared: relay)
        defer { app.application.stop() }
        let page = try app.openCounter()
        #expect(page.html.contains(">7</p>"))
        relay.accept(9)
        let events = try app.client.openEvents(for: page)
        defer { events.close() }
        let first = try #require(try events.next())
        #expect(first.event == "patch")
        #expect(first.screen == page.screenID)
        #expect(first.data.contains(">9</p>"))
        #expect(!first.data.contains(">7</p>"))
        // The changed label alone, not the page.
        #expect(!first.data.contains("<button"))
        #expect(first.data.utf8.count * 4 < page.html.utf8.count)
        // The next change is the next patch.
        relay.accept(10)
        let second = try #require(try events.next())
        #expect(second.event == "patch")
        #expect(second.data.contains(">10</p>"))
    }

    /// The bytes of lately rendered pages, from `/metrics`.
    private static func keptRenderBytes(_ app: TestApp) throws -> Int? {
        let text = try app.client.get("/metrics").text
        return text.split(separator: "\n").first { $0.hasPrefix("screenplay_recent_render_bytes ") }
            .flatMap { Int($0.split(separator: " ")[1]) }
    }

    /// A page's render is kept until its stream attaches, current or not, and no longer: a live screen renders itself.
    @Test func aPagesRenderIsKeptUntilItsStreamAttaches() throws {
        let relay = BehaviorRelay(value: 7)
        let app = try TestApp(shared: relay)
        defer { app.application.stop() }
        #expect(try Self.keptRenderBytes(app) == 0)
        let current = try app.openCounter()
        let stale = try app.openCounter()
        #expect(try Self.keptRenderBytes(app) == current.html.utf8.count + stale.html.utf8.count)
        let events = try app.client.openEvents(for: current)
        defer { events.close() }
        #expect(eventually { (try? Self.keptRenderBytes(app)) == stale.html.utf8.count })
        relay.accept(8)
        let staleEvents = try app.client.openEvents(for: stale)
        defer { staleEvents.close() }
        #expect(try staleEvents.next()?.event == "patch")
        #expect(try Self.keptRenderBytes(app) == 0)
    }

    /// A render no longer kept (none is, here; or another instance rendered it) brings the page up to date whole.
    @Test func aSubscriptionAfterTheDataChangedWithoutTheRenderKeptResetsThePage() throws {
        let relay = BehaviorRelay(value: 7)
        var sessions = SessionConfiguration()
        sessions.recentRenderBytes = 0
        let app = try TestApp(sessions: sessions, shared: relay)
        defer { app.application.stop() }
        let page = try app.openCounter()
        relay.accept(9)
        let events = try app.client.openEvents(for: page)
        defer { events.close() }
        let first = try #require(try events.next())
        #expect(first.event == "reset")
        #expect(first.screen == page.screenID)
        #expect(first.data.contains(">9</p>"))
        #expect(!first.data.contains(">7</p>"))
    }

    /// A token altered in any character is refused: a post is 403 and builds nothing; an attach gets a fresh screen
    /// under a new id (the page's id is never adopted).
    @Test func aTamperedTokenIsRefusedAndTheAttachGetsAFreshScreen() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let page = try app.openCounter("?start=5")
        let token = try #require(page.csrfToken)
        let tampered = [
            String(token.prefix(21)) + (token.dropFirst(21).first == "A" ? "B" : "A") + token.dropFirst(22),
            String(token.prefix(23)) + "/counter?start=6",
            token + "&admin=1",
            String(token.prefix(22)),
        ]
        for forged in tampered {
            let post = try app.client.post(
                page.actionPath("increment")!, form: ["csrf": forged], headers: ["X-Requested-With": "fetch"])
            #expect(post.status == 403, "\(forged)")
        }
        #expect(app.factory.createdRelays.isEmpty)
        #expect(app.application.openSessionCount == 0)
        let shared = try app.client.openSharedStream()
        defer { shared.close() }
        let attach = try app.client.post(
            "/streams/\(shared.id)/screens",
            form: [
                "screen": page.screenID!, "csrf": tampered[0], "url": "/counter?start=5",
                "version": String(page.attribute("data-wire")!),
            ])
        #expect(attach.status == 204)
        let rebuilt = try #require(try shared.events.next())
        #expect(rebuilt.event == "rebuilt")
        #expect(rebuilt.data.contains(#""replaces":"\#(page.screenID!)""#))
        #expect(app.application.sessions.session(id: page.screenID!) == nil)
        #expect(app.application.openSessionCount == 1)
    }

    /// Another browser holding a page's token (it was rendered for the first browser) is refused: its posts are 403,
    /// and its attach never adopts the page's screen id, so the first browser's page cannot be joined to a screen
    /// built for someone else.
    @Test func aTokenFromAnotherBrowserIsRefused() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let page = try app.openCounter()
        let other = LiveClient(port: app.application.port)
        _ = try other.get("/counter")  // the other browser has its own identity cookie
        let post = try other.post(
            page.actionPath("increment")!, form: ["csrf": page.csrfToken!], headers: ["X-Requested-With": "fetch"])
        #expect(post.status == 403)
        let input = try other.post(
            page.inputPath!, form: ["csrf": page.csrfToken!, "name": "x", "value": "1", "seq": "1"],
            headers: ["X-Requested-With": "fetch"])
        #expect(input.status == 403)
        #expect(app.factory.createdRelays.isEmpty)
        let shared = try other.openSharedStream()
        defer { shared.close() }
        #expect(try other.attach(page, to: shared.id).status == 204)
        let rebuilt = try #require(try shared.events.next())
        #expect(rebuilt.event == "rebuilt")
        #expect(app.application.sessions.session(id: page.screenID!) == nil)
        // The browser the page was rendered for still gets its own screen under the page's id.
        try app.makeLive(page)
        #expect(app.application.sessions.session(id: page.screenID!) != nil)
    }

    /// Without JavaScript the form's post arrives before any stream: the screen is built from the page's token under
    /// the page's id, the action runs on it, and the 303 to the screen's own URL shows that live screen.
    @Test func aPostWithoutAStreamBuildsTheScreenFromThePagesToken() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let page = try app.openCounter("?start=3")
        #expect(app.application.openSessionCount == 0)
        let response = try app.client.post(page.actionPath("increment")!, form: ["csrf": page.csrfToken!])
        #expect(response.status == 303)
        // The screen's own URL, naming the live screen: reloading it shows that screen.
        #expect(response.header("Location") == "/counter?start=3&screen=\(page.sessionID!)")
        #expect(app.factory.createdRelays.map(\.value) == [4])
        #expect(try app.client.get(response.header("Location")!).text.contains(">4</p>"))
        #expect(try app.client.get("/screens/\(page.sessionID!)").text.contains(">4</p>"))
    }

    /// Tokens signed with one secret verify on another process that shares it: a page rendered before a restart goes
    /// live under its own id, without a reset when nothing changed.
    @Test func aPageRenderedBeforeARestartGoesLiveUnderItsOwnIdWhenTheSecretIsShared() throws {
        var sessions = SessionConfiguration()
        sessions.tokenSecret = "page-token-tests-secret-0123456789abcdef"
        let first = try TestApp(sessions: sessions)
        let page = try first.openCounter("?start=3")
        let port = first.application.port
        first.application.stop()
        var server = ServerConfiguration()
        server.port = port
        let second = try Application(root: fixtureRoot, server: server, sessions: sessions)
        let factory = CounterFactory()
        try second.screen("/counter", CounterViewController.self) { factory.make($0) }
        try second.start()
        defer { second.stop() }
        let client = LiveClient(port: port, sameBrowserAs: first.client)
        let shared = try client.openSharedStream()
        defer { shared.close() }
        #expect(try client.attach(page, to: shared.id).status == 204)
        #expect(second.sessions.session(id: page.sessionID!) != nil)
        factory.createdRelays[0].accept(4)
        let firstEvent = try #require(try shared.events.next())
        #expect(firstEvent.event == "patch")
        #expect(firstEvent.screen == page.screenID)
    }

    @Test func aShortTokenSecretIsAConfigurationError() throws {
        var sessions = SessionConfiguration()
        sessions.tokenSecret = "too-short"
        #expect {
            _ = try Application(root: fixtureRoot, sessions: sessions)
        } throws: { error in
            String(describing: error).contains("tokenSecret has 9 characters")
        }
    }
}
