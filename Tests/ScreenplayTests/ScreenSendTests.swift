import Dispatch
import HTTPServer
import Primitives
import Reactive
import Testing
import ViewKit

@testable import Screenplay

/// A screen's send and its streams: each send answers whether its stream is still open, and the screen forgets the
/// closed ones by that answer, without asking every stream whether it closed before every event.
@Suite struct ScreenSendTests {
    /// A stream that counts what it is sent and how often it is asked whether it closed.
    private final class CountingTarget: ScreenEventTarget {
        private let state = Locked((sent: 0, askedClosed: 0, closed: false))

        func send(_ event: FramedEvent) -> Bool {
            state.withLock { state in
                guard !state.closed else { return false }
                state.sent += 1
                return true
            }
        }

        func sendUnnumbered(event: String, data: String) {}

        var isClosed: Bool {
            state.withLock { state in
                state.askedClosed += 1
                return state.closed
            }
        }

        func close() { state.withLock { $0.closed = true } }

        func onClose(_ handler: @escaping @Sendable () -> Void) {}

        var sent: Int { state.withLock { $0.sent } }
        var askedClosed: Int { state.withLock { $0.askedClosed } }
    }

    /// A stream that keeps what it is sent.
    private final class RecordingTarget: ScreenEventTarget {
        private let state = Locked((events: [FramedEvent](), closed: false))

        func send(_ event: FramedEvent) -> Bool {
            state.withLock { state in
                guard !state.closed else { return false }
                state.events.append(event)
                return true
            }
        }

        func sendUnnumbered(event: String, data: String) {}
        var isClosed: Bool { state.withLock { $0.closed } }
        func close() { state.withLock { $0.closed = true } }
        func onClose(_ handler: @escaping @Sendable () -> Void) {}
        var events: [FramedEvent] { state.withLock { $0.events } }
    }

    /// A counter screen keeping `eventBuffer` events.
    /// A session of the counter's screen, installed and its page rendered, on a scheduler of its own.
    private static func sessionWithARenderedScreen() -> ScreenSession {
        let scheduler = ScreenScheduler(label: "test")
        let session = ScreenSession(id: "S1", csrfToken: "T1", url: "/counter", scheduler: scheduler)
        scheduler.sync {
            let screen = ScreenHandlersTests.makeScreen(on: scheduler)
            session.install(screen)
            _ = screen.renderPage()
        }
        return session
    }

    private static func makeScreen(eventBuffer: Int) -> Screen {
        let templates = try! TemplateLibrary(directory: fixtureTemplates, registry: ViewRegistry())
        return Screen(
            viewController: CounterFactory().make(ScreenRequest(url: "/counter", path: "/counter")),
            layout: try! templates.template(named: "layout"), templates: templates, url: "/counter", backURL: "/",
            sessionID: "S1", csrfToken: "T1", eventBuffer: eventBuffer)
    }

    /// A screen records each event in its log after its streams have it: the log keeps the events the streams were
    /// sent, byte for byte, one id after another through the log's wrap, and a reconnecting stream is replayed those
    /// same events, or sent a `reset` under the next id when they are no longer kept.
    @Test func aScreensLogKeepsTheEventsItsStreamsWereSentAndAReconnectIsReplayedThem() {
        let scheduler = ScreenScheduler(label: "test")
        scheduler.sync {
            let screen = Self.makeScreen(eventBuffer: 3)
            let counter = screen.viewController as! CounterViewController
            _ = screen.renderPage()
            let (first, second) = (RecordingTarget(), RecordingTarget())
            screen.attach(first, lastEventID: nil)
            screen.attach(second, lastEventID: nil)
            for number in 1...4 {
                counter.countLabel.text = "\(number)"
                if number.isMultiple(of: 2) { counter.title = "Counter \(number)" }
                screen.flush()
                let sent = first.events
                #expect(sent.map(\.id) == Array(1...sent.count))
                #expect(second.events.map(\.bytes) == sent.map(\.bytes))
                #expect(screen.lastEventID == sent.count)
                #expect(screen.keptEvents.map(\.bytes) == sent.suffix(3).map(\.bytes))
            }
            let sent = first.events
            #expect(sent.map(\.name) == ["patch", "patch", "title", "patch", "patch", "title"])
            let replayed = RecordingTarget()
            screen.attach(replayed, lastEventID: sent.count - 2)
            #expect(replayed.events.map(\.bytes) == sent.suffix(2).map(\.bytes))
            let reset = RecordingTarget()
            screen.attach(reset, lastEventID: sent.count - 4)
            #expect(reset.events.map(\.name) == ["reset"] && reset.events.map(\.id) == [sent.count + 1])
            #expect(first.events.last?.bytes == reset.events.first?.bytes)
            #expect(screen.keptEvents.last?.bytes == reset.events.first?.bytes)
            screen.end()
        }
    }

    /// A stream that overflows on a screen's event closes in the send, its close handlers running there: they
    /// schedule their work, so nothing is recorded before the event, which the log keeps in turn.
    @Test func aStreamOverflowingOnAScreensEventLeavesTheLogInTurn() throws {
        let session = Self.sessionWithARenderedScreen()
        let shared = SharedStream(id: "s", stream: EventStream(), capacity: 2)
        let overflowing = try shared.attach(screenID: "S1")
        let kept = RecordingTarget()
        for target in [overflowing, kept] as [any ScreenEventTarget] {
            session.streamConnected(target)
            session.attachLater(target, lastEventID: nil) { _ in }
        }
        session.scheduler.sync {}
        _ = session.perform { screen in
            (screen.viewController as! CounterViewController).countLabel.text = String(repeating: "7", count: 1 << 20)
        }
        _ = session.perform { screen in (screen.viewController as! CounterViewController).countLabel.text = "8" }
        #expect(overflowing.isClosed)
        let sent = kept.events
        #expect(sent.count == 2 && sent.map(\.id) == [1, 2])
        #expect(session.perform { $0.keptEvents.map(\.bytes) } == sent.map(\.bytes))
        #expect(session.perform { $0.streamCount } == 1)
        session.end()
    }

    @Test func aScreenSendsWithoutAskingItsStreamsWhetherTheyClosedAndForgetsOneWhoseSendSaysSo() {
        let session = Self.sessionWithARenderedScreen()
        let (kept, closing) = (CountingTarget(), CountingTarget())
        for target in [kept, closing] { session.attachLater(target, lastEventID: nil) { _ in } }
        session.scheduler.sync {}
        let asked = (kept.askedClosed, closing.askedClosed)
        _ = session.perform { screen in (screen.viewController as! CounterViewController).countLabel.text = "7" }
        let sent = kept.sent
        #expect(sent > 0 && closing.sent == sent)
        #expect(kept.askedClosed == asked.0 && closing.askedClosed == asked.1)
        closing.close()
        _ = session.perform { screen in (screen.viewController as! CounterViewController).countLabel.text = "8" }
        #expect(kept.sent > sent && closing.sent == sent)
        #expect(session.perform { $0.streamCount } == 1)
        session.end()
    }

    @Test func anAttachmentsSendSaysWhetherItAndItsStreamAreOpen() throws {
        let event = FramedEvent(name: "patch", id: 1, lineOfData: Array("[]".utf8))
        let stream = EventStream()
        let shared = SharedStream(id: "s", stream: stream, capacity: 2)
        let (first, second) = (try shared.attach(screenID: "a"), try shared.attach(screenID: "b"))
        #expect(first.send(event) && second.send(event))
        first.close()
        #expect(!first.send(event) && second.send(event))
        stream.close()
        #expect(!second.send(event))
        // An event that takes a stream past its bound closes it: that send says so too.
        let overflowing = FramedEvent(name: "patch", id: 2, lineOfData: [UInt8](repeating: 0x61, count: 1 << 20))
        #expect(EventStream().send(event) && !EventStream().send(overflowing))
    }

    /// An attachment's send reads whether it closed without its lock: a send on another thread while it closes is
    /// sent or refused, each send after the close is refused, and its close handlers run once, a later one at once.
    @Test func anAttachmentClosingWhileAnotherThreadSendsRefusesEverySendAfterItsClose() throws {
        let event = FramedEvent(name: "patch", id: 1, lineOfData: Array("[]".utf8))
        for _ in 0..<20 {
            let shared = SharedStream(id: "s", stream: EventStream(), capacity: 1)
            let attachment = try shared.attach(screenID: "a")
            let ran = Locked((handlers: 0, sentAfterClose: 0))
            attachment.onClose { ran.withLock { $0.handlers += 1 } }
            let closed = Locked(false)
            DispatchQueue.concurrentPerform(iterations: 2) { worker in
                if worker == 0 {
                    attachment.close()
                    closed.withLock { $0 = true }
                    attachment.close()
                } else {
                    for _ in 0..<200 {
                        let wasClosed = closed.withLock { $0 }
                        if attachment.send(event) && wasClosed { ran.withLock { $0.sentAfterClose += 1 } }
                    }
                }
            }
            #expect(!attachment.send(event) && attachment.isClosed)
            attachment.onClose { ran.withLock { $0.handlers += 1 } }
            #expect(ran.withLock { $0 } == (handlers: 2, sentAfterClose: 0))
        }
    }
}
