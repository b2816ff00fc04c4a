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
        let events = try app.client.openEvents(page.eventsPath!)
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
        let session = try #require(app.application.sessions.all.first)
        let events = try whileBusy({ session.scheduler.schedule($0) }) {
            // Waiting for the screen, this would time out (2 s) while the screen is held.
            try LiveClient(port: app.application.port, timeout: 2).openEvents(page.eventsPath!)
        }
        defer { events.close() }
        app.factory.createdRelays[0].accept(7)
        let patch = try #require(try events.next { $0.event == "patch" })
        #expect(patch.data.contains(">7</p>"))
    }

    @Test func eventIdsIncreaseAndAReconnectReplaysWhatWasMissed() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let page = try app.openCounter()
        #expect(page.lastEventID == "0")
        let first = try app.client.openEvents(page.eventsPath!)
        let relay = app.factory.createdRelays[0]
        relay.accept(1)
        let patch = try #require(try first.next { $0.event == "patch" })
        #expect(patch.id == "1")
        _ = try first.next { $0.event == "title" }
        first.close()
        relay.accept(2)
        relay.accept(3)
        // Changes while disconnected are kept; a reconnect with Last-Event-ID gets them in order.
        #expect(eventually { app.application.openSessionCount == 1 })
        Thread.sleep(forTimeInterval: 0.1)
        let second = try app.client.openEvents(page.eventsPath!, headers: ["Last-Event-ID": "2"])
        defer { second.close() }
        // Two changes in quick succession may be one patch or two: read until the latest value shows up.
        var replayed: [ServerSentEvent] = []
        while let event = try second.next() {
            replayed.append(event)
            if event.event == "patch" && event.data.contains(">3</p>") { break }
        }
        #expect(replayed.first?.id == "3")
        #expect(replayed.compactMap { $0.id.flatMap(Int.init) } == Array(3..<(3 + replayed.count)))
    }

    @Test func screensSendingTheSamePatchKeepOnePayloadBetweenThem() throws {
        // Each screen keeps its last events for replay; a fan-out kept a framed copy of the patch per screen (6.6 KB
        // a detail screen after 32 changes). The payload is shared now, framed as each stream sends it. The patch
        // memo is the process's, and tests alongside may encode a patch between the two screens' flushes: one
        // shared round in twenty is enough, and without the sharing none would be.
        let app = try TestApp()
        defer { app.application.stop() }
        let pages = try [app.openCounter(), app.openCounter()]
        let sessions = app.application.sessions.all
        #expect(sessions.count == 2)
        let relays = app.factory.createdRelays
        let events = try pages.map { try app.client.openEvents($0.eventsPath!) }
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

    @Test func aGapTheBufferCannotCoverIsAReset() throws {
        var sessions = SessionConfiguration()
        sessions.eventBuffer = 1
        let app = try TestApp(sessions: sessions)
        defer { app.application.stop() }
        let page = try app.openCounter()
        let relay = app.factory.createdRelays[0]
        for value in 1...5 { relay.accept(value) }
        // Let the screen take the five changes in, and then send the patches its turns scheduled: a sleep would
        // depend on the machine's load.
        for session in app.application.sessions.all {
            session.scheduler.sync {}
            session.scheduler.sync {}
        }
        let events = try app.client.openEvents(page.eventsPath!, headers: ["Last-Event-ID": "0"])
        defer { events.close() }
        let reset = try #require(try events.next())
        #expect(reset.event == "reset")
        let payload = try JSONSerialization.jsonObject(with: Data(reset.data.utf8)) as? [String: String]
        #expect(payload?["events"] == page.eventsPath)
        #expect(payload?["html"]?.contains(">5</p>") == true)
    }

    @Test func aStreamForAnUnknownSessionRebuildsTheScreenFromItsURLAndResets() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let events = try app.client.openEvents("/screens/unknown/events?url=%2Fcounter%3Fstart%3D7")
        defer { events.close() }
        let reset = try #require(try events.next())
        #expect(reset.event == "reset")
        let payload = try JSONSerialization.jsonObject(with: Data(reset.data.utf8)) as? [String: String]
        let html = try #require(payload?["html"])
        #expect(html.contains(">7</p>"))
        let newEvents = try #require(payload?["events"])
        #expect(newEvents != "/screens/unknown/events")
        #expect(html.contains("data-events=\"\(newEvents)\""))
        // The rebuilt screen is live: its actions work.
        let page = LivePage(html)
        let response = try app.client.post(
            page.actionPath("increment")!, form: ["csrf": page.csrfToken!], headers: ["X-Requested-With": "fetch"])
        #expect(response.status == 204)
        let patch = try events.next { $0.event == "patch" }
        #expect(patch?.data.contains(">8</p>") == true)
        #expect(try app.client.get("/screens/unknown/events").status == 404)
        #expect(try app.client.get("/screens/unknown/events?url=%2Fnowhere").status == 404)
        #expect(try app.client.get("/screens/unknown/events?url=http%3A%2F%2Fevil.example%2F").status == 404)
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
        let events = try LiveClient(port: port).openEvents(
            page.eventsPath! + "?url=" + "%2Fcounter%3Fstart%3D3" + "&lastEventId=0")
        defer { events.close() }
        let reset = try #require(try events.next())
        #expect(reset.event == "reset")
        #expect(reset.data.contains(">3</p>"))
        #expect(second.openSessionCount == 1)
    }

    @Test func theScreenAppearsWhenItsStreamConnectsAndTwoStreamsBothReceiveEvents() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let page = try app.openCounter()
        #expect(app.factory.appearances.load(ordering: .relaxed) == 0)
        let events = try app.client.openEvents(page.eventsPath!)
        defer { events.close() }
        #expect(eventually { app.factory.appearances.load(ordering: .relaxed) == 1 })
        let second = try app.client.openEvents(page.eventsPath!)
        defer { second.close() }
        app.factory.createdRelays[0].accept(5)
        #expect(try events.next { $0.event == "patch" }?.data.contains(">5</p>") == true)
        #expect(try second.next { $0.event == "patch" }?.data.contains(">5</p>") == true)
        #expect(app.factory.appearances.load(ordering: .relaxed) == 1)
    }
}
