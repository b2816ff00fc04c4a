import TestSupport
import Testing

@testable import Screenplay

/// A render's factory sees a request that is not live, whoever asks for the render: a GET makes its request so when it
/// makes it (so the render builds from it without a copy), and a render of a live request is built from a copy made
/// not live.
@Suite struct RenderOnlyRequestTests {
    @Test func aRenderOfALiveRequestShowsItsFactoryARequestThatIsNotLive() throws {
        let seen = TestMutex<[Bool]>([])
        let app = try TestApp(start: false)
        defer { app.application.stop() }
        try app.application.screen("/seen", CounterViewController.self) { request in
            seen.withLock { $0.append(request.isLive) }
            return app.factory.make(request)
        }
        try app.application.start()
        let router = app.application.screens
        let (route, request) = try #require(router.route(forURL: "/seen"))
        #expect(request.isLive)
        let rendered = try router.build(route, request: request, keeping: .renderOnly)
        #expect(!rendered.html.isEmpty)
        #expect(try app.client.get("/seen").status == 200)
        let live = try router.build(route, request: request, keeping: .live)
        defer { live.session.end() }
        #expect(seen.withLock { $0 } == [false, false, true])
        #expect(app.application.openSessionCount == 1)
    }

    /// A GET's screen is built for one render: its views mark no path to their changes (the page is rendered once and
    /// the screen ends), and the page shows what they were set to. A live screen's views mark theirs.
    @Test func aRenderedScreensViewsRecordNoChangesAndThePageShowsTheirValues() throws {
        let seen = TestMutex<[(isLive: Bool, recordsChanges: Bool, marked: Bool)]>([])
        let app = try TestApp(start: false)
        defer { app.application.stop() }
        try app.application.screen("/marked", CounterViewController.self) { request in
            let viewController = app.factory.make(request)
            viewController.loadViewIfNeeded()
            viewController.countLabel.text = "set by the factory"
            let view = viewController.view
            seen.withLock { $0.append((request.isLive, view.recordsChanges, viewController.countLabel.needsRender)) }
            return viewController
        }
        try app.application.start()
        let page = try app.client.get("/marked")
        #expect(page.status == 200)
        #expect(page.text.contains(">set by the factory<"))
        let router = app.application.screens
        let (route, request) = try #require(router.route(forURL: "/marked"))
        let live = try router.build(route, request: request, keeping: .live)
        defer { live.session.end() }
        #expect(String(decoding: live.html, as: UTF8.self).contains(">set by the factory<"))
        #expect(seen.withLock { $0.map(\.isLive) } == [false, true])
        #expect(seen.withLock { $0.map(\.recordsChanges) } == [false, true])
        #expect(seen.withLock { $0.map(\.marked) } == [true, true])
    }
}
