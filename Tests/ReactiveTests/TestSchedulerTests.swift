import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct TestSchedulerTests {
        @Test func runsActionsInVirtualTimeOrder() {
            let scheduler = TestScheduler(initialClock: 0)
            var log: [String] = []
            scheduler.scheduleAt(30) { log.append("30@\(scheduler.clock)") }
            scheduler.scheduleAt(10) { log.append("10@\(scheduler.clock)") }
            scheduler.scheduleAt(10) { log.append("10b@\(scheduler.clock)") }
            scheduler.start()
            #expect(log == ["10@10", "10b@10", "30@30"])
        }

        @Test func advanceToRunsOnlyDueActions() {
            let scheduler = TestScheduler(initialClock: 0)
            var log: [Int] = []
            scheduler.scheduleAt(10) { log.append(10) }
            scheduler.scheduleAt(50) { log.append(50) }
            scheduler.advanceTo(20)
            #expect(log == [10])
            #expect(scheduler.clock == 20)
            scheduler.start()
            #expect(log == [10, 50])
        }

        @Test func immediateWorkRunsOneTickLaterWithProcessingDelay() {
            let scheduler = TestScheduler(initialClock: 0)
            let observer = scheduler.start { Observable.of(1, 2).observe(on: scheduler) }
            #expect(observer.events == [.next(201, 1), .next(201, 2), .completed(201)])
        }

        @Test func disposedScheduledActionsDoNotRun() {
            let scheduler = TestScheduler(initialClock: 0)
            var ran = false
            let scheduled = scheduler.scheduleRelative((), dueTime: .seconds(5)) { _ in
                ran = true
                return Disposables.create()
            }
            scheduled.dispose()
            scheduler.start()
            #expect(!ran)
        }

        @Test func coldObservableStartsPerSubscriber() {
            let scheduler = TestScheduler(initialClock: 0)
            let cold = scheduler.createColdObservable([.next(5, "a"), .completed(10)])
            let observer = scheduler.start { cold }
            #expect(observer.events == [.next(205, "a"), .completed(210)])
            #expect(cold.subscriptions == [Subscription(200, 210)])
        }

        @Test func recordedEventsListsItsArguments() {
            let events = Recorded.events(.next(210, 1), .completed(300))
            #expect(events == [.next(210, 1), .completed(300)])
            #expect(events != Recorded.events(.next(210, 1)))
        }
    }
}
