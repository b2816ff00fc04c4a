import Foundation
import HTTPServer
import Reactive
import Screenplay
import ScreenplayTesting
import TestSupport
import Testing

@Suite struct EventStreamTests {
    @Test func aStateChangeFromAnotherThreadArrivesAsAPatchOfTheChangedView() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let page = try app.openCounter()
        let events = try app.client.openEvents(for: page)
        defer { events.close() }
        #expect(eventually { app.factory.createdRelays.count == 1 })
        DispatchQueue.global().async { app.factory.createdRelays[0].accept(42) }
        let patch = try #require(try events.next { $0.event == "patch" })
        let operations = try JSONSerialization.jsonObject(with: Data(patch.data.utf8)) as? [[Any]]
        #expect(operations?.count == 1)
        #expect(operations?.first?.first as? String == "replace")
        #expect((operations?.first?[2] as? String)?.hasSuffix(">42</p>") == true)
        let title = try events.next { $0.event == "title" }
        #expect(title?.data == "Counter 42")
    }

    @Test func openingAStreamDoesNotWaitForABusyScreen() throws {
        // An I/O thread that waited for a busy screen's scheduler held up every request of its connections (a soak's
        // PATCHes stalled for seconds behind screens queued by a fan-out). The stream is answered at once and
        // attached when the screen is free; what the screen does after that reaches it.
        let app = try TestApp()
        defer { app.application.stop() }
        let page = try app.openCounter()
        let session = try app.makeLive(page)
        let events = try whileBusy({ session.scheduler.schedule($0) }) {
            // Waiting for the screen, this would time out (2 s) while the screen is held.
            try LiveClient(port: app.application.port, timeout: 2).openEvents(for: page)
        }
        defer { events.close() }
        app.factory.createdRelays[0].accept(7)
        let patch = try #require(try events.next { $0.event == "patch" })
        #expect(patch.data.contains(">7</p>"))
    }

    @Test func screensSendingTheSamePatchKeepOnePayloadBetweenThem() throws {
        // Each screen keeps its last events for replay; a fan-out kept a framed copy of the patch per screen (6.6 KB
        // a detail screen after 32 changes). The payload is shared now, framed as each stream sends it. The patch
        // memo is the process's, and tests alongside may encode a patch between the two screens' flushes: one
        // shared round in twenty is enough, and without the sharing none would be.
        let app = try TestApp()
        defer { app.application.stop() }
        let pages = try [app.openCounter(), app.openCounter()]
        let sessions = try pages.map { try app.makeLive($0) }
        #expect(app.application.sessions.count == 2)
        let relays = app.factory.createdRelays
        let events = try pages.map { try app.client.openEvents(for: $0) }
        defer { for stream in events { stream.close() } }
        let shared = try (100..<120).contains { value in
            for relay in relays { relay.accept(value) }
            for stream in events { _ = try #require(try stream.next { $0.data.contains(">\(value)</p>") }) }
            let kept = sessions.map { session in
                session.perform { screen in screen.keptEvents.last { $0.name == "patch" } } ?? nil
            }
            let first = try #require(kept[0])
            let second = try #require(kept[1])
            #expect(first.id == second.id)
            return first.data.withUnsafeBufferPointer { $0.baseAddress }
                == second.data.withUnsafeBufferPointer { $0.baseAddress }
        }
        #expect(shared)
    }

    @Test func aPageRecoversAfterTheServerRestarts() throws {
        let first = try TestApp()
        let page = try first.openCounter("?start=3")
        let port = first.application.port
        first.application.stop()

        var server = ServerConfiguration()
        server.port = port
        let second = try Application(root: fixtureRoot, server: server)
        let factory = CounterFactory()
        try second.screen("/counter", CounterViewController.self) { factory.make($0) }
        try second.start()
        defer { second.stop() }
        // The page attaches its screen, which this process never had: rebuilt from its URL, then reset.
        let events = try LiveClient(port: port).openEvents(for: page, lastEventID: 0)
        defer { events.close() }
        let reset = try #require(try events.next { $0.event == "reset" })
        #expect(reset.data.contains(">3</p>"))
        #expect(second.openSessionCount == 1)
    }

    @Test func theFirstWireVersionsPageStreamIsGone() throws {
        // One protocol is served: a page's own stream at /screens/{sid}/events was version 1's.
        let app = try TestApp()
        defer { app.application.stop() }
        let page = try app.openCounter()
        #expect(!page.html.contains("data-events"))
        #expect(page.attribute("data-wire") == "2")
        #expect(try app.client.get("/screens/\(page.sessionID!)/events").status == 404)
        #expect(try app.client.get("/screens/unknown/events?url=%2Fcounter").status == 404)
        #expect(app.application.openSessionCount == 0)
    }

    @Test func theScreenAppearsWhenItsStreamConnectsAndTwoStreamsBothReceiveEvents() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let page = try app.openCounter()
        #expect(app.factory.appearances.load(ordering: .relaxed) == 0)
        let events = try app.client.openEvents(for: page)
        defer { events.close() }
        #expect(eventually { app.factory.appearances.load(ordering: .relaxed) == 1 })
        let second = try app.client.openEvents(for: page)
        defer { second.close() }
        app.factory.createdRelays[0].accept(5)
        #expect(try events.next { $0.event == "patch" }?.data.contains(">5</p>") == true)
        #expect(try second.next { $0.event == "patch" }?.data.contains(">5</p>") == true)
        #expect(app.factory.appearances.load(ordering: .relaxed) == 1)
    }
}
