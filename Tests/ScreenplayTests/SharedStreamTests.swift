import Foundation
import HTTPServer
import Reactive
import Screenplay
import ScreenplayTesting
import TestSupport
import Testing

/// Wire protocol v2: one event stream per browser carries the events of every screen attached to it.
@Suite struct SharedStreamTests {
    @Test func oneStreamCarriesTwoScreensEventsEachNamingItsScreenInOrder() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let (first, second) = (try app.openCounter(), try app.openCounter("?start=100"))
        let shared = try app.client.openSharedStream()
        defer { shared.close() }
        #expect(try app.client.attach(first, to: shared.id).status == 204)
        #expect(try app.client.attach(second, to: shared.id).status == 204)
        let (relayA, relayB) = (app.factory.createdRelays[0], app.factory.createdRelays[1])
        DispatchQueue.global().async {
            for value in 1...5 {
                relayA.accept(value)
                relayB.accept(100 + value)
            }
        }
        var numbers: [String: [Int]] = [:]
        var shown: [String: String] = [:]
        while shown[first.screenID!] != ">5</p>" || shown[second.screenID!] != ">105</p>" {
            let event = try #require(try shared.events.next())
            let screen = try #require(event.screen)
            #expect(screen == first.screenID || screen == second.screenID)
            numbers[screen, default: []].append(try #require(event.number))
            if event.event == "patch", let range = event.data.range(of: #">\d+</p>"#, options: .regularExpression) {
                shown[screen] = String(event.data[range])
            }
        }
        for (_, sequence) in numbers { #expect(sequence == Array(1...sequence.count)) }
        #expect(numbers.count == 2)
    }

    @Test func aStreamCarryingMoreThanOneScreenSendsInBatches() throws {
        let stream = EventStream()
        let shared = SharedStream(id: "s", stream: stream, capacity: 10)
        let first = try shared.attach(screenID: "a")
        #expect(!stream.isBatching)
        let second = try shared.attach(screenID: "b")
        #expect(stream.isBatching)
        // Attaching a screen again replaces its place: still two screens.
        _ = try shared.attach(screenID: "b")
        #expect(stream.isBatching)
        first.close()
        #expect(!stream.isBatching)
        _ = second
    }

    @Test func theStreamsBytesNameEachScreenInItsIds() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let (first, second) = (try app.openCounter(), try app.openCounter("?start=100"))
        let shared = try app.client.openSharedStream()
        defer { shared.close() }
        #expect(try app.client.attach(first, to: shared.id).status == 204)
        app.factory.createdRelays[0].accept(1)
        _ = try shared.events.next { $0.event == "title" }
        #expect(try app.client.attach(second, to: shared.id).status == 204)
        app.factory.createdRelays[1].accept(101)
        _ = try shared.events.next { $0.event == "title" }
        app.factory.createdRelays[0].accept(2)
        _ = try shared.events.next { $0.event == "title" && $0.screen == first.screenID }
        let bytes = shared.events.received
            .replacingOccurrences(of: shared.id, with: "STREAM")
            .replacingOccurrences(of: first.screenID!, with: "SCREEN-A")
            .replacingOccurrences(of: second.screenID!, with: "SCREEN-B")
            .replacingOccurrences(of: first.attribute("data-client")!, with: "CLIENT")
            .split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix(":") }
            .joined(separator: "\n")
        assertSnapshot(of: bytes, as: .lines)
    }

    @Test func aReattachReplaysWhatTheScreenMissedAfterItsLastID() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let page = try app.openCounter()
        let before = try app.client.openSharedStream()
        #expect(try app.client.attach(page, to: before.id).status == 204)
        let relay = app.factory.createdRelays[0]
        relay.accept(1)
        let title = try #require(try before.events.next { $0.event == "title" })
        #expect(title.number == 2)
        before.close()
        #expect(eventually { !app.application.sessions.all.contains { $0.isConnected } })
        relay.accept(2)
        relay.accept(3)
        Thread.sleep(forTimeInterval: 0.1)
        let after = try app.client.openSharedStream()
        defer { after.close() }
        #expect(try app.client.attach(page, to: after.id, lastEventID: 2).status == 204)
        var replayed: [ServerSentEvent] = []
        while let event = try after.events.next() {
            replayed.append(event)
            if event.event == "patch" && event.data.contains(">3</p>") { break }
        }
        #expect(replayed.allSatisfy { $0.screen == page.screenID })
        #expect(replayed.compactMap(\.number) == Array(3..<(3 + replayed.count)))
    }

    @Test func aGapTheScreensBufferCannotCoverIsAReset() throws {
        var sessions = SessionConfiguration()
        sessions.eventBuffer = 2
        let app = try TestApp(sessions: sessions)
        defer { app.application.stop() }
        let page = try app.openCounter()
        let before = try app.client.openSharedStream()
        #expect(try app.client.attach(page, to: before.id).status == 204)
        let relay = app.factory.createdRelays[0]
        for value in 1...4 {
            relay.accept(value)
            _ = try before.events.next { $0.event == "title" && $0.data == "Counter \(value)" }
        }
        before.close()
        let after = try app.client.openSharedStream()
        defer { after.close() }
        #expect(try app.client.attach(page, to: after.id, lastEventID: 1).status == 204)
        let reset = try #require(try after.events.next())
        #expect(reset.event == "reset")
        #expect(reset.screen == page.screenID)
        #expect(reset.number == 9)
        #expect(reset.data.contains(">4</p>"))
    }

    @Test func anUnknownScreenIsRebuiltFromItsURLAnnouncedAndReset() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let shared = try app.client.openSharedStream()
        defer { shared.close() }
        let response = try app.client.post(
            "/streams/\(shared.id)/screens",
            form: ["screen": "gone", "csrf": "old", "url": "/counter?start=5", "version": "2"])
        #expect(response.status == 204)
        let rebuilt = try #require(try shared.events.next())
        #expect(rebuilt.event == "rebuilt")
        let newID = try #require(app.application.sessions.all.first?.id)
        #expect(rebuilt.data == #"{"screen":"\#(newID)","replaces":"gone"}"#)
        let reset = try #require(try shared.events.next())
        #expect(reset.event == "reset")
        #expect(reset.id == "\(newID).1")
        #expect(reset.data.contains(">5</p>"))
        #expect(reset.data.contains(#"data-screen=\"\#(newID)\""#))
        #expect(eventually { app.factory.appearances.load(ordering: .relaxed) == 1 })
    }

    @Test func aDetachedScreenStaysAliveAndSendsNothingOnTheStream() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let (first, second) = (try app.openCounter(), try app.openCounter())
        let shared = try app.client.openSharedStream()
        defer { shared.close() }
        #expect(try app.client.attach(first, to: shared.id).status == 204)
        #expect(try app.client.attach(second, to: shared.id).status == 204)
        let detach = try app.client.post(
            "/streams/\(shared.id)/detach", form: ["screen": first.screenID!, "csrf": first.csrfToken!])
        #expect(detach.status == 204)
        app.factory.createdRelays[0].accept(1)
        Thread.sleep(forTimeInterval: 0.1)
        app.factory.createdRelays[1].accept(2)
        let event = try #require(try shared.events.next())
        #expect(event.screen == second.screenID)
        #expect(app.application.openSessionCount == 2)
        let again = try app.client.post(
            "/streams/\(shared.id)/detach", form: ["screen": first.screenID!, "csrf": first.csrfToken!])
        #expect(again.status == 404)
    }

    @Test func closingAPageEndsItsScreenWithItsDisappearance() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let page = try app.openCounter()
        let shared = try app.client.openSharedStream()
        defer { shared.close() }
        #expect(try app.client.attach(page, to: shared.id).status == 204)
        #expect(eventually { app.factory.appearances.load(ordering: .relaxed) == 1 })
        let close = try app.client.post("/screens/\(page.screenID!)/close", form: ["csrf": page.csrfToken!])
        #expect(close.status == 204)
        #expect(eventually { app.factory.disappearances.load(ordering: .relaxed) == 1 })
        #expect(app.application.openSessionCount == 0)
        #expect(eventually { app.application.metrics.exposition().contains("screenplay_shared_stream_screens 0\n") })
    }

    @Test func refusalsHaveAClearStatusAndChangeNothing() throws {
        var sessions = SessionConfiguration()
        sessions.screensPerStream = 2
        let app = try TestApp(sessions: sessions)
        defer { app.application.stop() }
        let pages = try (0..<3).map { _ in try app.openCounter() }
        for page in pages { try app.makeLive(page) }
        let shared = try app.client.openSharedStream()
        defer { shared.close() }
        let client = app.client
        func attach(_ form: [String: String], stream: String? = nil, headers: [String: String] = [:]) throws -> Int {
            let versioned = form.merging(["version": "2"]) { mine, _ in mine }
            return try client.post("/streams/\(stream ?? shared.id)/screens", form: versioned, headers: headers).status
        }
        let (page, other) = (pages[0], pages[1])
        let valid = ["screen": page.screenID!, "csrf": page.csrfToken!, "url": "/counter"]
        #expect(try attach(valid, stream: "no-such-stream") == 404)
        // A page of another protocol version (or one that names none) is told to reload.
        let unversioned = try client.post("/streams/\(shared.id)/screens", form: valid)
        #expect(unversioned.status == 409)
        #expect(unversioned.text.contains("Reload the page"))
        #expect(try attach(valid.merging(["version": "1"]) { $1 }) == 409)
        #expect(try attach(valid.merging(["csrf": "forged"]) { $1 }) == 403)
        #expect(try attach(valid.merging(["csrf": other.csrfToken!]) { $1 }) == 403)
        #expect(try attach(valid.merging(["csrf": ""]) { $1 }) == 403)
        #expect(try attach(["csrf": page.csrfToken!]) == 400)
        #expect(try attach(valid.merging(["last": "seven"]) { $1 }) == 400)
        #expect(try attach(valid.merging(["last": "-1"]) { $1 }) == 400)
        #expect(try attach(["screen": "unknown", "csrf": "x"]) == 404)
        #expect(try attach(["screen": "unknown", "csrf": "x", "url": "/nowhere"]) == 404)
        #expect(try attach(["screen": "unknown", "csrf": "x", "url": "https://elsewhere.example/counter"]) == 404)
        #expect(try attach(valid, headers: ["Origin": "http://elsewhere.example"]) == 403)
        #expect(try attach(valid, headers: ["Sec-Fetch-Site": "cross-site"]) == 403)
        #expect(app.application.metrics.exposition().contains("screenplay_shared_stream_screens 0\n"))
        #expect(app.application.openSessionCount == 3)
        #expect(try client.get("/streams", headers: ["Origin": "http://elsewhere.example"]).status == 403)
        let detachForged = try client.post(
            "/streams/\(shared.id)/detach", form: ["screen": page.screenID!, "csrf": "forged"])
        #expect(detachForged.status == 403)
        let detachUnknownStream = try client.post(
            "/streams/nope/detach", form: ["screen": page.screenID!, "csrf": page.csrfToken!])
        #expect(detachUnknownStream.status == 404)
        let closeForged = try client.post("/screens/\(page.screenID!)/close", form: ["csrf": other.csrfToken!])
        #expect(closeForged.status == 403)
        let closeCrossOrigin = try client.post(
            "/screens/\(page.screenID!)/close", form: ["csrf": page.csrfToken!],
            headers: ["Origin": "http://elsewhere.example"])
        #expect(closeCrossOrigin.status == 403)
        // Nothing held under that id: nothing to close, and nothing changes.
        #expect(try client.post("/screens/unknown/close", form: ["csrf": "x"]).status == 204)
        #expect(app.application.openSessionCount == 3)
        // The cap: two screens fit, a third is refused and not attached.
        #expect(try client.attach(pages[0], to: shared.id).status == 204)
        #expect(try client.attach(pages[1], to: shared.id).status == 204)
        #expect(try client.attach(pages[2], to: shared.id).status == 429)
        #expect(try attach(["screen": "unknown", "csrf": "x", "url": "/counter"]) == 429)
        #expect(app.application.openSessionCount == 3)
        #expect(app.application.metrics.exposition().contains("screenplay_shared_stream_screens 2\n"))
        // Attaching the same screen again replaces its place: still two.
        #expect(try client.attach(pages[0], to: shared.id).status == 204)
        #expect(app.application.metrics.exposition().contains("screenplay_shared_stream_screens 2\n"))
    }

    @Test func aStreamOfManyScreensIsOneConnectionInTheMetrics() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let pages = try (0..<3).map { _ in try app.openCounter() }
        let shared = try app.client.openSharedStream()
        defer { shared.close() }
        for page in pages { #expect(try app.client.attach(page, to: shared.id).status == 204) }
        let metrics = app.application.metrics.exposition()
        #expect(metrics.contains("screenplay_event_streams_open 1\n"))
        #expect(metrics.contains("screenplay_shared_streams_open 1\n"))
        #expect(metrics.contains("screenplay_shared_stream_screens 3\n"))
        #expect(metrics.contains("screenplay_shared_stream_screens_max 3\n"))
        shared.close()
        #expect(eventually { app.application.metrics.exposition().contains("screenplay_shared_streams_open 0\n") })
        #expect(app.application.metrics.exposition().contains("screenplay_event_streams_open 0\n"))
    }

    @Test func aScreenNoStreamWatchesHoldsItsChangesAndCatchesUpInOnePatch() throws {
        let app = try TestApp(conflated: true)
        defer { app.application.stop() }
        let page = try app.openCounter()
        let session = try app.makeLive(page)
        // Its stream gone, the screen holds: the attach and the stream's close each run in a turn of the screen's
        // own, which a slow run (ThreadSanitizer's) reached later than a fixed pause after the stream read as closed.
        #expect(eventually { !session.isConnected && session.scheduler.isIdle && session.scheduler.isHolding })
        let relay = app.factory.createdRelays[0]
        // The render's binder and the live screen's.
        #expect(app.factory.configurations.load(ordering: .relaxed) == 2)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for value in 1...25 { relay.accept(worker * 100 + value) }
        }
        relay.accept(50)
        Thread.sleep(forTimeInterval: 0.2)
        // No stream: the binder did not run for any of the 101 changes, and nothing was rendered.
        #expect(app.factory.configurations.load(ordering: .relaxed) == 2)
        let shared = try app.client.openSharedStream()
        #expect(try app.client.attach(page, to: shared.id).status == 204)
        let patch = try #require(try shared.events.next())
        #expect(patch.event == "patch")
        #expect(patch.number == 1)
        #expect(patch.data.contains(">50</p>"))
        #expect(try shared.events.next()?.event == "title")
        #expect(app.factory.configurations.load(ordering: .relaxed) == 3)
        // Watched, each change runs the binder.
        relay.accept(51)
        #expect(try shared.events.next { $0.event == "patch" }?.number == 3)
        #expect(app.factory.configurations.load(ordering: .relaxed) == 4)
        // Its stream gone, the screen holds again; a reattach replays nothing missed (none was sent) and catches up.
        _ = try shared.events.next { $0.event == "title" }
        shared.close()
        #expect(eventually { !session.isConnected && session.scheduler.isIdle && session.scheduler.isHolding })
        relay.accept(52)
        relay.accept(53)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(app.factory.configurations.load(ordering: .relaxed) == 4)
        let again = try app.client.openSharedStream()
        defer { again.close() }
        #expect(try app.client.attach(page, to: again.id, lastEventID: 4).status == 204)
        let caughtUp = try #require(try again.events.next())
        #expect(caughtUp.event == "patch")
        #expect(caughtUp.number == 5)
        #expect(caughtUp.data.contains(">53</p>"))
        #expect(app.factory.configurations.load(ordering: .relaxed) == 5)
    }

    @Test func anActionOnAScreenNoStreamWatchesActsOnItsCurrentState() throws {
        let app = try TestApp(conflated: true)
        defer { app.application.stop() }
        let page = try app.openCounter()
        try app.makeLive(page)
        app.factory.createdRelays[0].accept(41)
        Thread.sleep(forTimeInterval: 0.1)
        let response = try app.client.post(
            page.actionPath("increment")!, form: ["csrf": page.csrfToken!], headers: ["X-Requested-With": "fetch"])
        #expect(response.status == 204)
        #expect(app.factory.createdRelays[0].value == 42)
    }
}
