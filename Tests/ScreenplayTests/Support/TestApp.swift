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

    var client: LiveClient { LiveClient(port: application.port) }

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

    /// Opens a counter page and returns it.
    func openCounter(_ query: String = "") throws -> LivePage {
        let response = try client.get("/counter" + query)
        guard response.status == 200 else { throw LiveClientError(description: "GET /counter: \(response.status)") }
        return LivePage(response)
    }
}
