import Foundation
import Screenplay
import ScreenplayTesting
import Testing

@Suite struct ConcurrentSessionsTests {
    @Test func aThousandOpenScreensEachReceiveTheirOwnPatch() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let count = 1_000
        let pages = try (0..<count).map { _ in try app.openCounter() }
        let streams = try pages.map { try app.client.openEvents(for: $0) }
        defer { streams.forEach { $0.close() } }
        let relays = app.factory.createdRelays
        #expect(relays.count == count)
        // Change every screen's state from several threads at once; each value is the screen's own.
        DispatchQueue.concurrentPerform(iterations: count) { index in relays[index].accept(10_000 + index) }
        var received = 0
        for (index, stream) in streams.enumerated() {
            let patch = try stream.next { $0.event == "patch" }
            if patch?.data.contains(">\(10_000 + index)</p>") == true { received += 1 }
        }
        #expect(received == count)
        #expect(app.application.openSessionCount == count)
    }
}
