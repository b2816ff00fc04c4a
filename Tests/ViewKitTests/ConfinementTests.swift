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

    /// The check reads the root's key where the walk up reaches it: a label three levels down, changed off the
    /// scheduler, stops the process; taking the tree's changes there does too.
    @Test func aChangeOrATakingDeepInAConfinedTreeOffItsSchedulerStops() async {
        let changing = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let scheduler = ScreenScheduler(label: "viewkit.deep")
            let root = View()
            let (section, row, label) = (View(), View(), Label())
            root.addSubview(section)
            section.addSubview(row)
            row.addSubview(label)
            root.confine(to: scheduler)
            label.text = "from the wrong thread"
        }
        let changingMessage = String(decoding: changing?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            changingMessage.contains(
                "Changing a view (<span> in a confined view tree) must run on screen scheduler viewkit.deep"))
        let taking = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let scheduler = ScreenScheduler(label: "viewkit.deep")
            let root = View()
            root.addSubview(Label())
            root.confine(to: scheduler)
            _ = root.takeChanges(context: RenderContext())
        }
        let takingMessage = String(decoding: taking?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            takingMessage.contains(
                "Taking a view tree's changes (<div> in a confined view tree) must run on screen scheduler viewkit.deep"
            ))
    }
}
