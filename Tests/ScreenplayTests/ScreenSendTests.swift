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

    @Test func aScreenSendsWithoutAskingItsStreamsWhetherTheyClosedAndForgetsOneWhoseSendSaysSo() {
        let scheduler = ScreenScheduler(label: "test")
        let session = ScreenSession(id: "S1", csrfToken: "T1", url: "/counter", scheduler: scheduler)
        scheduler.sync {
            let screen = ScreenHandlersTests.makeScreen(on: scheduler)
            session.install(screen)
            _ = screen.renderPage()
        }
        let (kept, closing) = (CountingTarget(), CountingTarget())
        for target in [kept, closing] { session.attachLater(target, lastEventID: nil) { _ in } }
        scheduler.sync {}
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
