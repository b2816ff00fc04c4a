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
}
