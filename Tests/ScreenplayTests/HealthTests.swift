import Foundation
import Screenplay
import ScreenplayTesting
import Synchronization
import Testing

@Suite struct HealthTests {
    @Test func healthzAnswersWhileTheProcessIsAlive() throws {
        let app = try OperationsTestApp()
        defer { app.stop() }
        let response = try app.client.get("/healthz")
        #expect(response.status == 200)
        #expect(response.text == "ok\n")
    }

    @Test func readyzIsReadyWhenTemplatesAreLoadedAndEveryCheckPasses() throws {
        let app = try OperationsTestApp()
        defer { app.stop() }
        app.application.addReadinessCheck("store") {}
        let response = try app.client.get("/readyz")
        #expect(response.status == 200)
        #expect(response.text == "ready\n")
    }

    @Test func readyzIs503NamingTheFailingCheck() throws {
        struct StoreClosed: Error {}
        let app = try OperationsTestApp()
        defer { app.stop() }
        let isOpen = Atomic<Bool>(false)
        app.application.addReadinessCheck("store") {
            if !isOpen.load(ordering: .relaxed) { throw StoreClosed() }
        }
        let response = try app.client.get("/readyz")
        #expect(response.status == 503)
        #expect(response.text == "not ready: store\n")
        #expect(app.log.events("readiness.failed").first?["check"] == "store")
        isOpen.store(true, ordering: .relaxed)
        #expect(try app.client.get("/readyz").status == 200)
    }
}
