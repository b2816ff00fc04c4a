import HTTPServer
import Reactive
import Synchronization
import ViewKit

@testable import Screenplay

/// A clock tests move by hand.
final class ManualClock: Sendable {
    private let nanoseconds = Atomic<UInt64>(1_000_000_000)
    var now: UInt64 { nanoseconds.load(ordering: .relaxed) }
    func advance(seconds: UInt64) { nanoseconds.add(seconds * 1_000_000_000, ordering: .relaxed) }
}

/// Opens bare sessions (with a real counter screen) straight in a registry, for expiry tests in virtual time.
struct SessionHarness {
    let registry: SessionRegistry

    func open(connected: Bool = false) -> ScreenSession {
        let session = ScreenSession(
            id: SessionToken.make(), csrfToken: SessionToken.make(), url: "/counter",
            scheduler: ScreenScheduler(label: "test"))
        let templates = try! TemplateLibrary(directory: fixtureTemplates, registry: ViewRegistry())
        session.scheduler.sync {
            let screen = Screen(
                viewController: CounterFactory().make(ScreenRequest(url: "/counter", path: "/counter")),
                layout: try! templates.template(named: "layout"), templates: templates, url: "/counter",
                backURL: "/", sessionID: session.id, csrfToken: session.csrfToken)
            session.install(screen)
        }
        if connected {
            let shared = SharedStream(id: SessionToken.make(), stream: EventStream(), capacity: 1)
            session.streamConnected(try! shared.attach(screenID: session.id))
        }
        registry.insert(session)
        return session
    }

    func ended(_ session: ScreenSession) -> Bool {
        session.scheduler.sync {}
        return session.perform { _ in true } == nil
    }
}
