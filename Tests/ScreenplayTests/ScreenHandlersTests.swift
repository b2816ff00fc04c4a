import Primitives
import Reactive
import Testing
import ViewKit

@testable import Screenplay

/// A screen's handlers (its view controller's title and style, its page's invalidation, its navigation) hold it
/// unowned: app code that keeps a view controller or a view past the screen's end, or past the screen itself, can
/// change them then, and nothing reaches the screen.
@Suite struct ScreenHandlersTests {
    static func makeScreen(on scheduler: ScreenScheduler) -> Screen {
        let templates = try! TemplateLibrary(directory: fixtureTemplates, registry: ViewRegistry())
        return Screen(
            viewController: CounterFactory().make(ScreenRequest(url: "/counter", path: "/counter")),
            layout: try! templates.template(named: "layout"), templates: templates, url: "/counter", backURL: "/",
            sessionID: "S1", csrfToken: "T1")
    }

    /// glibc's size of the allocation behind `pointer` (`<malloc.h>`, which Glibc does not export).
    @_silgen_name("malloc_usable_size")
    private static func mallocUsableSize(_ pointer: UnsafeMutableRawPointer) -> Int

    @Test func aScreenKeepsItsFlagsAfterItsLastOptional() {
        // A live screen is kept for as long as a page may watch it: its yes-or-no states, in a word of their own,
        // took it into the next malloc size class (Benchmarks/History/54-screen-memory-8.md). The smallest of many:
        // glibc sometimes hands out a larger chunk than a request needs.
        let scheduler = ScreenScheduler(label: "test")
        scheduler.sync {
            let screens = (0..<32).map { _ in Self.makeScreen(on: scheduler) }
            let sizes = screens.map { Self.mallocUsableSize(Unmanaged.passUnretained($0).toOpaque()) }
            #expect(sizes.min() ?? 0 <= 264)
            for screen in screens { screen.end() }
        }
    }

    @Test func aViewControllerKeptPastItsScreensEndChangesNothingThere() {
        let scheduler = ScreenScheduler(label: "test")
        scheduler.sync {
            let screen = Self.makeScreen(on: scheduler)
            _ = screen.renderPage()
            let viewController = screen.viewController as! CounterViewController
            var patches = 0
            screen.eventObserver = { if case .patch = $0 { patches += 1 } }
            screen.end()
            viewController.title = "After the end"
            viewController.countLabel.text = "99"
            screen.flush()
            #expect(patches == 0)
            #expect(screen.isEnded)
        }
    }

    @Test func aViewControllerAndAViewKeptPastTheirScreenCanStillChange() {
        let scheduler = ScreenScheduler(label: "test")
        scheduler.sync {
            var viewController: CounterViewController?
            weak var gone: Screen?
            do {
                let screen = Self.makeScreen(on: scheduler)
                _ = screen.renderPage()
                viewController = screen.viewController as? CounterViewController
                gone = screen
            }
            #expect(gone == nil)
            viewController?.title = "After the screen"
            viewController?.countLabel.text = "99"
            viewController?.view.isHidden = true
            #expect(viewController?.countLabel.text == "99")
        }
    }

    /// The page's invalidation handler reaches the screen (through its navigation controller): a change of the page
    /// schedules the screen's flush while the screen lives, keeps nothing alive, and a page kept past its screen can
    /// still change without reaching it.
    @Test func aPageChangeSchedulesItsScreensFlushAndAPageKeptPastItChangesNothing() {
        let scheduler = ScreenScheduler(label: "test")
        scheduler.sync {
            var page: View?
            weak var gone: Screen?
            var flushes = 0
            do {
                let screen = Self.makeScreen(on: scheduler)
                _ = screen.renderPage()
                screen.scheduleFlush = { flushes += 1 }
                screen.page.classList.insert("changed")
                #expect(flushes == 1)
                screen.flush()
                page = screen.page
                gone = screen
            }
            #expect(gone == nil)
            page?.classList.insert("after-the-screen")
            page?.isHidden = true
            #expect(flushes == 1)
            #expect(page?.classList.contains("after-the-screen") == true)
        }
    }

    /// A session keeps its screen on its scheduler itself, with no box between them; the screen's flush reaches the
    /// screen through the session, and ending the session lets the screen and the session go.
    @Test func aSessionFlushesItsScreenAndEndingItLetsBothGo() {
        let scheduler = ScreenScheduler(label: "test")
        weak var goneSession: ScreenSession?
        weak var goneScreen: Screen?
        do {
            let session = ScreenSession(id: "S1", csrfToken: "T1", url: "/counter", scheduler: scheduler)
            goneSession = session
            let patches = Locked(0)
            scheduler.sync {
                let screen = Self.makeScreen(on: scheduler)
                session.install(screen)
                _ = screen.renderPage()
                screen.eventObserver = { if case .patch = $0 { patches.withLock { $0 += 1 } } }
                goneScreen = screen
            }
            _ = session.perform { screen in (screen.viewController as! CounterViewController).countLabel.text = "7" }
            #expect(patches.withLock { $0 } == 1)
            session.end()
            #expect(session.perform { _ in true } == nil)
        }
        scheduler.sync {}
        #expect(goneScreen == nil)
        #expect(goneSession == nil)
    }

    /// A stream's close handler holds the session alone: when one of two streams closes, the screen forgets it and
    /// keeps the other; when the last closes, it forgets that one too and the session is no longer connected.
    @Test func aClosedStreamIsForgottenAndTheOtherKept() throws {
        let scheduler = ScreenScheduler(label: "test")
        let session = ScreenSession(id: "S1", csrfToken: "T1", url: "/counter", scheduler: scheduler)
        scheduler.sync { session.install(Self.makeScreen(on: scheduler)) }
        let streams = try (0..<2).map { _ in
            try SharedStream(id: SessionToken.make(), stream: EventStream(), capacity: 1).attach(screenID: "S1")
        }
        for stream in streams {
            session.streamConnected(stream)
            _ = session.perform { $0.attach(stream, lastEventID: nil) }
        }
        #expect(session.perform { $0.streamCount } == 2 && session.isConnected)
        streams[0].close()
        #expect(session.perform { $0.streamCount } == 1 && session.isConnected)
        streams[1].close()
        #expect(session.perform { $0.streamCount } == 0 && !session.isConnected)
        session.end()
    }

    /// A stream that closed before its attach's turn on the screen watches nothing: the screen goes on holding its
    /// changes (its close found no stream to detach, so nothing would hold it again); an open one resumes it.
    @Test func aStreamClosedBeforeItsAttachLeavesTheScreenHolding() throws {
        let scheduler = ScreenScheduler(label: "test")
        let session = ScreenSession(id: "S1", csrfToken: "T1", url: "/counter", scheduler: scheduler)
        scheduler.sync { session.install(Self.makeScreen(on: scheduler)) }
        #expect(scheduler.isHolding)
        let closed = try SharedStream(id: SessionToken.make(), stream: EventStream(), capacity: 1).attach(
            screenID: "S1")
        session.streamConnected(closed)
        closed.close()
        session.attachLater(closed, lastEventID: nil) { _ in }
        scheduler.sync {}
        #expect(scheduler.isHolding && !session.isConnected)
        let open = try SharedStream(id: SessionToken.make(), stream: EventStream(), capacity: 1).attach(screenID: "S1")
        session.streamConnected(open)
        session.attachLater(open, lastEventID: nil) { _ in }
        scheduler.sync {}
        #expect(!scheduler.isHolding && session.isConnected)
        session.end()
    }

    /// An attachment tells its shared stream itself when it closes (the stream keeps no handler on it): the stream
    /// forgets it unless another took its screen's place, and the attachment's handlers run once each, at once when
    /// it is closed already.
    @Test func aClosedAttachmentIsForgottenByItsSharedStream() throws {
        let shared = SharedStream(id: "X", stream: EventStream(), capacity: 4)
        let (one, two) = (try shared.attach(screenID: "A"), try shared.attach(screenID: "B"))
        let calls = Locked(0)
        one.onClose { calls.withLock { $0 += 1 } }
        one.onClose { calls.withLock { $0 += 10 } }
        #expect(shared.screenCount == 2)
        one.close()
        one.close()
        #expect(shared.screenCount == 1 && one.isClosed && calls.withLock { $0 } == 11)
        one.onClose { calls.withLock { $0 += 100 } }
        #expect(calls.withLock { $0 } == 111)
        let replacement = try shared.attach(screenID: "B")
        #expect(two.isClosed && !replacement.isClosed && shared.screenCount == 1)
        replacement.close()
        #expect(shared.screenCount == 0)
    }
}
