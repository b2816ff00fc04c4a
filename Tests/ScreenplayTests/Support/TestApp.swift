import Foundation
import HTTPServer
import Reactive
import Screenplay
import ScreenplayTesting
import Synchronization

/// A live counter app on an ephemeral port: `/counter` is the counter screen.
struct TestApp {
    let application: Application
    let factory: CounterFactory

    /// The browser the test drives: its cookies last as long as the app.
    private let browser = LiveClient(port: 0)
    var client: LiveClient { LiveClient(port: application.port, sameBrowserAs: browser) }

    init(
        sessions: SessionConfiguration = SessionConfiguration(), shared: BehaviorRelay<Int>? = nil, start: Bool = true,
        threadCount: Int = ServerConfiguration.coreCount, conflated: Bool = false
    ) throws {
        var server = ServerConfiguration()
        server.port = 0
        server.threadCount = threadCount
        server.heartbeatInterval = .seconds(1)
        application = try Application(root: fixtureRoot, server: server, sessions: sessions)
        let factory = CounterFactory(shared: shared, conflated: conflated)
        self.factory = factory
        try application.screen("/counter", CounterViewController.self, parent: "/counter?from=leave") { request in
            factory.make(request)
        }
        if start { try application.start() }
    }

    /// Builds `page`'s live screen, as its stream's first attach does (a page GET keeps none), and leaves it with no
    /// stream connected; answers its session.
    @discardableResult
    func makeLive(_ page: LivePage) throws -> ScreenSession {
        try ScreenplayTests.makeLive(page, client: client, application: application)
    }

    /// Opens a counter page and returns it.
    func openCounter(_ query: String = "") throws -> LivePage {
        let response = try client.get("/counter" + query)
        guard response.status == 200 else { throw LiveClientError(description: "GET /counter: \(response.status)") }
        return LivePage(response)
    }
}

/// Builds `page`'s live screen on `application`, as its stream's first attach does (a page GET keeps none), and
/// leaves it with no stream connected; answers its session.
@discardableResult
func makeLive(_ page: LivePage, client: LiveClient, application: Application) throws -> ScreenSession {
    let shared = try client.openSharedStream()
    defer { shared.close() }
    let answer = try client.attach(page, to: shared.id)
    guard answer.status == 204 else { throw LiveClientError(description: "attach: \(answer.status) \(answer.text)") }
    guard let session = application.sessions.session(id: page.sessionID ?? "") else {
        throw LiveClientError(description: "attach: no live screen under the page's id")
    }
    return session
}
