import Foundation
import Reactive
import Testing

extension ReactiveTests {
    @Suite struct ScreenConfinedTests {
        final class ViewController {
            var title = "untitled"
        }

        @Test func valueIsReachableOnItsScheduler() {
            let scheduler = ScreenScheduler(label: "confined")
            let screen = scheduler.sync { ScreenConfined(ViewController(), on: scheduler) }
            let title = scheduler.sync { () -> String in
                screen.value.title = "Alien"
                return screen.value.title
            }
            #expect(title == "Alien")
            #expect(screen.scheduler === scheduler)
        }

        @Test func runHopsOntoTheScheduler() {
            let scheduler = ScreenScheduler(label: "confined")
            let screen = scheduler.sync { ScreenConfined(ViewController(), on: scheduler) }
            let seen = Collector<String>()
            screen.run { viewController in
                seen.append("\(scheduler.isCurrent) \(viewController.title)")
            }
            scheduler.sync {}
            #expect(seen.values == ["true untitled"])
        }

        @Test func accessOffItsSchedulerNamesTheMistake() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let scheduler = ScreenScheduler(label: "screen.9")
                let screen = scheduler.sync { ScreenConfined(ViewController(), on: scheduler) }
                _ = screen.value
            }
            let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(message.contains("must run on screen scheduler screen.9, but ran off any screen scheduler"))
        }
    }
}
