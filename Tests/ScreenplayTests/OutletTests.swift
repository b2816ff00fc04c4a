import ScreenplayTesting
import Testing
import ViewKit

@testable import Screenplay

/// Outlets are remembered after their first lookup; the view tree stays the truth.
@Suite struct OutletTests {
    @Test func readingAnOutletTwiceGivesTheSameViewFromTheTemplate() throws {
        let harness = try ScreenHarness(templates: fixtureTemplates) { _ in CounterViewController() }
        let same = harness.onScreen(CounterViewController.self) { controller in
            controller.countLabel === controller.countLabel && controller.countLabel.superview != nil
        }
        #expect(same)
        let text = harness.onScreen(CounterViewController.self) { $0.countLabel.text }
        #expect(text == "0")
    }

    @Test func anOutletViewReplacedInTheTreeIsFoundAgain() throws {
        let harness = try ScreenHarness(templates: fixtureTemplates) { _ in CounterViewController() }
        let (replaced, isNewView) = harness.onScreen(CounterViewController.self) { controller -> (String?, Bool) in
            let old = controller.countLabel
            let parent = old.superview!
            old.removeFromSuperview()
            let replacement = Label(text: "replacement")
            replacement.setAttribute("data-outlet", "countLabel")
            parent.addSubview(replacement)
            return (controller.countLabel.text, controller.countLabel === replacement)
        }
        #expect(replaced == "replacement")
        #expect(isNewView)
    }

    /// Outlets are found together on the first read; one added to the view afterwards, under a name not found
    /// then, is found when read, and so is a view that replaced every remembered one.
    @Test func anOutletAddedAfterTheFirstReadIsFoundToo() throws {
        let harness = try ScreenHarness(templates: fixtureTemplates) { _ in CounterViewController() }
        let found = harness.onScreen(CounterViewController.self) { controller -> Bool in
            let label = controller.countLabel
            let late = Label(text: "late")
            late.setAttribute("data-outlet", "lateLabel")
            controller.view.addSubview(late)
            let readLate: Label = controller.outlet(named: "lateLabel", as: Label.self)
            return readLate === late && controller.countLabel === label
        }
        #expect(found)
    }

    /// The remembered outlets are read first where the last read left off, and move there when found further on:
    /// reads in the same order again, in another order, of one name over and over, and after a view was replaced,
    /// each give the view a search of the tree finds.
    @Test func outletsReadInAnyOrderAgainAndAgainAreTheViewsASearchFinds() throws {
        let harness = try ScreenHarness(templates: fixtureTemplates) { _ in CounterViewController() }
        let mismatches = harness.onScreen(CounterViewController.self) { controller -> [String] in
            let names = ["countLabel", "incrementButton", "burstButton", "leaveButton"]
            var mismatches: [String] = []
            func check(_ order: [String]) {
                for name in order {
                    let read: View = controller.outlet(named: name, as: View.self)
                    if read !== controller.view.outletIfPresent(name) { mismatches.append(name) }
                }
            }
            check(names)
            check(names)
            check(names.reversed())
            check([names[2], names[0], names[3], names[1], names[2], names[2], names[0]])
            let old = controller.countLabel
            let replacement = Label(text: "replacement")
            replacement.setAttribute("data-outlet", "countLabel")
            old.superview!.addSubview(replacement)
            old.removeFromSuperview()
            check(names.reversed())
            check(names)
            if controller.countLabel !== replacement { mismatches.append("the replacement") }
            return mismatches
        }
        #expect(mismatches == [])
    }

    /// Reads in the same order, as a binder's on each change, take the remembered view the last read points at
    /// only while it is still in the view and bears the name: one taken out since is not handed out, its
    /// replacement is, and the reads in turn go on giving the views a search finds.
    @Test func aViewReadInTurnIsHandedOutOnlyWhileItIsInTheView() throws {
        let harness = try ScreenHarness(templates: fixtureTemplates) { _ in CounterViewController() }
        let mismatches = harness.onScreen(CounterViewController.self) { controller -> [String] in
            let names = ["countLabel", "incrementButton", "burstButton"]
            var mismatches: [String] = []
            func readInTurn() {
                for name in names {
                    let read: View = controller.outlet(named: name, as: View.self)
                    if read !== controller.view.outletIfPresent(name) { mismatches.append(name) }
                }
            }
            readInTurn()
            readInTurn()
            // The next read in turn is the count label's: take it out of the view, without a read.
            let old = controller.view.outletIfPresent("countLabel")!
            let replacement = Label(text: "replacement")
            replacement.setAttribute("data-outlet", "countLabel")
            old.superview!.addSubview(replacement)
            old.removeFromSuperview()
            let read: Label = controller.outlet(named: "countLabel", as: Label.self)
            if read !== replacement { mismatches.append("the replacement") }
            if read === old { mismatches.append("the view taken out") }
            readInTurn()
            readInTurn()
            return mismatches
        }
        #expect(mismatches == [])
    }

    @Test func rxLifecycleEventsObservedLateStillArrive() throws {
        let harness = try ScreenHarness(templates: fixtureTemplates, appear: false) { _ in CounterViewController() }
        harness.onScreen(CounterViewController.self) { controller in
            controller.rx.viewDidAppear.subscribe(onNext: { [unowned controller] in
                controller.lifecycleLog.append("rx.viewDidAppear(\($0))")
            }).disposed(by: controller.bag)
        }
        harness.appear()
        let log = harness.onScreen(CounterViewController.self) { $0.lifecycleLog }
        #expect(log.last == "rx.viewDidAppear(false)")
    }
}
