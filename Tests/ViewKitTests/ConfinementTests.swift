import Reactive
import Testing
import ViewKit

@Suite struct ConfinementTests {
    final class Screen {
        let root = View()
        let label = Label()

        init() { root.addSubview(label) }
    }

    @Test func aConfinedTreeWorksOnItsScheduler() {
        let scheduler = ScreenScheduler(label: "viewkit.confined")
        let screen = ScreenConfined(Screen(), on: scheduler)
        let changes = scheduler.sync { () -> Int in
            let screen = screen.value
            screen.root.confine(to: scheduler)
            _ = screen.root.renderHTML(context: RenderContext())
            screen.label.text = "Heat"
            return screen.root.takeChanges(context: RenderContext()).count
        }
        #expect(changes == 1)
    }

    @Test func changingAConfinedTreeOffItsSchedulerStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let scheduler = ScreenScheduler(label: "viewkit.confined")
            let root = View()
            let label = Label()
            root.addSubview(label)
            root.confine(to: scheduler)
            label.text = "from the wrong thread"
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            message.contains(
                "Changing a view (<span> in a confined view tree) must run on screen scheduler viewkit.confined"))
    }
}
