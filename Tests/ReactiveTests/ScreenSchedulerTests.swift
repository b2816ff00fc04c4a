import Dispatch
import Foundation
import Reactive
import Testing

extension ReactiveTests {
    @Suite struct ScreenSchedulerTests {
        @Test func currentIsNilOffAnyScreen() {
            #expect(ScreenScheduler.current == nil)
            #expect(!ScreenScheduler(label: "idle").isCurrent)
        }

        @Test func codeOnTheSchedulerFindsIt() {
            let scheduler = ScreenScheduler(label: "found")
            let other = ScreenScheduler(label: "other")
            let (isCurrent, otherIsCurrent, label) = scheduler.sync {
                (scheduler.isCurrent, other.isCurrent, ScreenScheduler.current?.label)
            }
            #expect(isCurrent)
            #expect(!otherIsCurrent)
            #expect(label == "found")
        }

        @Test func runsWorkInFIFOOrderOneAtATime() {
            let scheduler = ScreenScheduler(label: "fifo")
            let order = Collector<Int>()
            for index in 0..<100 { scheduler.schedule { order.append(index) } }
            scheduler.sync {}
            #expect(order.values == Array(0..<100))
        }

        @Test func rxScheduleRunsAtOnceWhenIdleOnItsQueue() {
            let scheduler = ScreenScheduler(label: "immediate")
            let ranInline = scheduler.sync { () -> Bool in
                var ran = false
                _ = scheduler.schedule(()) { _ in
                    ran = true
                    return Disposables.create()
                }
                return ran
            }
            #expect(ranInline)
        }

        @Test func scheduleRelativeRunsLaterOnTheQueue() {
            let scheduler = ScreenScheduler(label: "later")
            let done = DispatchSemaphore(value: 0)
            let onQueue = Collector<Bool>()
            let start = Date()
            _ = scheduler.scheduleRelative((), dueTime: .milliseconds(20)) { _ in
                onQueue.append(scheduler.isCurrent)
                done.signal()
                return Disposables.create()
            }
            done.wait()
            #expect(Date().timeIntervalSince(start) >= 0.015)
            #expect(onQueue.values == [true])
        }

        @Test func releasedWhenNoLongerReferenced() {
            weak var released: ScreenScheduler?
            do {
                let scheduler = ScreenScheduler(label: "released")
                released = scheduler
                scheduler.sync {}
            }
            #expect(released == nil)
        }

        @Test func assertCurrentNamesTheMistake() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                ScreenScheduler(label: "screen.7").assertCurrent("Label.text set")
            }
            let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(message.contains("Label.text set must run on screen scheduler screen.7"))
        }

        @Test func syncOnItselfIsAProgrammerError() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let scheduler = ScreenScheduler(label: "self-sync")
                scheduler.sync { scheduler.sync {} }
            }
            let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(message.contains("deadlocks"))
        }
    }
}
