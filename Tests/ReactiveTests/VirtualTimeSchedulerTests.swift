import Foundation
import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct VirtualTimeSchedulerTests {
        @Test func runsActionsInOrderOfVirtualTime() {
            expectNoLeaks {
                let scheduler = HistoricalScheduler()
                var log: [String] = []
                _ = scheduler.scheduleRelative((), dueTime: .seconds(20)) { _ in
                    log.append("b \(scheduler.now.timeIntervalSince1970)")
                    return Disposables.create()
                }
                _ = scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
                    log.append("a \(scheduler.now.timeIntervalSince1970)")
                    _ = scheduler.schedule(()) { _ in
                        log.append("a2 \(scheduler.now.timeIntervalSince1970)")
                        return Disposables.create()
                    }
                    return Disposables.create()
                }
                #expect(log == [])
                scheduler.start()
                #expect(log == ["a 10.0", "a2 10.0", "b 20.0"])
            }
        }

        @Test func advanceToRunsOnlyWhatIsDue() {
            expectNoLeaks {
                let start = Date(timeIntervalSince1970: 1_000)
                let scheduler = HistoricalScheduler(initialClock: start)
                var ran: [Int] = []
                _ = scheduler.scheduleRelative(1, dueTime: .seconds(5)) { value in
                    ran.append(value)
                    return Disposables.create()
                }
                let cancelled = scheduler.scheduleRelative(2, dueTime: .seconds(6)) { value in
                    ran.append(value)
                    return Disposables.create()
                }
                scheduler.advanceTo(start.addingTimeInterval(5))
                #expect(ran == [1])
                #expect(scheduler.clock == start.addingTimeInterval(5))
                cancelled.dispose()
                scheduler.start()
                #expect(ran == [1])
            }
        }

        @Test func sleepMovesTheClockWithoutRunningAnything() {
            expectNoLeaks {
                let scheduler = HistoricalScheduler()
                var ran = false
                _ = scheduler.scheduleRelative((), dueTime: .seconds(5)) { _ in
                    ran = true
                    return Disposables.create()
                }
                scheduler.sleep(10)
                #expect(!ran)
                #expect(scheduler.now == Date(timeIntervalSince1970: 10))
                scheduler.start()
                #expect(ran)
            }
        }

        @Test func operatorsRunOnIt() {
            expectNoLeaks {
                let scheduler = HistoricalScheduler()
                var received: [Int] = []
                let subscription = Observable<Int>.interval(.seconds(1), scheduler: scheduler).take(3)
                    .subscribe(onNext: { received.append($0) })
                scheduler.start()
                subscription.dispose()
                #expect(received == [0, 1, 2])
                #expect(scheduler.now == Date(timeIntervalSince1970: 3))
            }
        }
    }
}
