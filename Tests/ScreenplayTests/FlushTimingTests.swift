import Dispatch
import Reactive
import Testing
import ViewKit

@testable import Screenplay

@Suite struct FlushTimingTests {
    /// In a fan-out every screen's turn waits on a shared pool behind the other screens' turns; a flush queued like
    /// any other work waited behind all of them again before its patch went out. The patch leaves at the end of the
    /// turn that changed the views, before work queued earlier (during that turn) runs, and still once for the whole turn.
    @Test func aTurnsChangesGoOutAsOnePatchWhenTheTurnEndsBeforeWorkQueuedDuringIt() {
        let session = SessionHarness(registry: SessionRegistry(configuration: SessionConfiguration())).open()
        let scheduler = session.scheduler
        let patches = ScreenConfined(0, on: scheduler)
        let seen = ScreenConfined<[Int]>([], on: scheduler)
        let label = ScreenConfined<Label?>(nil, on: scheduler)
        session.perform { screen in
            _ = screen.renderPage()  // as the page's GET does: from now on changes are patches
            screen.eventObserver = { if case .patch = $0 { patches.value += 1 } }
            label.value = (screen.viewController as? CounterViewController)?.countLabel
        }
        let done = DispatchSemaphore(value: 0)
        scheduler.schedule {
            // Queued before the change, as another screen's change feed queues work while this turn runs.
            scheduler.schedule {
                seen.value.append(patches.value)
                done.signal()
            }
            label.value?.text = "41"
            label.value?.text = "42"
            seen.value.append(patches.value)
        }
        done.wait()
        // Within the turn nothing went out yet; by the time the work it queued runs, exactly one patch has.
        #expect(scheduler.sync { seen.value } == [0, 1])
    }
}
