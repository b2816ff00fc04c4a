import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct TimerTests {
        @Test func aTimerWithoutPeriodSendsZeroAfterTheDueTimeAndCompletes() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let observer = scheduler.start { Observable<Int>.timer(.seconds(50), scheduler: scheduler) }
                #expect(observer.events == [.next(250, 0), .completed(250)])
            }
        }

        @Test func aTimerWithAPeriodTicksFirstAtTheDueTimeThenEveryPeriodUntilDisposed() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let observer = scheduler.start(disposed: 401) {
                    Observable<Int>.timer(.seconds(50), period: .seconds(30), scheduler: scheduler)
                }
                #expect(
                    observer.events == [
                        .next(250, 0), .next(280, 1), .next(310, 2), .next(340, 3), .next(370, 4), .next(400, 5),
                    ])
            }
        }

        // With the test scheduler's simulated processing delay, work due "now" runs one tick later, as in RxSwift.
        @Test func aZeroDueTimeTicksAtSubscription() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let observer = scheduler.start(disposed: 260) {
                    Observable<Int>.timer(.seconds(0), period: .seconds(25), scheduler: scheduler)
                }
                #expect(observer.events == [.next(201, 0), .next(226, 1), .next(251, 2)])
            }
        }

        @Test func disposingBeforeTheDueTimeSendsNothing() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let once = scheduler.start(disposed: 240) { Observable<Int>.timer(.seconds(50), scheduler: scheduler) }
                #expect(once.events.isEmpty)
                let periodic = TestScheduler(initialClock: 0)
                let repeating = periodic.start(disposed: 240) {
                    Observable<Int>.timer(.seconds(50), period: .seconds(10), scheduler: periodic)
                }
                #expect(repeating.events.isEmpty)
            }
        }

        @Test func disposingStopsTheTicksAndLeavesNothingScheduled() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let observer = scheduler.createObserver(Int.self)
                let subscription = Observable<Int>.interval(.seconds(10), scheduler: scheduler).subscribe(observer)
                scheduler.scheduleAt(35) { subscription.dispose() }
                // `start()` runs until nothing is scheduled: it returns only if the disposal cancelled the next tick.
                scheduler.start()
                #expect(observer.events == [.next(10, 0), .next(20, 1), .next(30, 2)])
            }
        }

        @Test func intervalTicksFirstAfterOnePeriod() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                // The disposal at 300 was scheduled first, so it runs before the tick due then.
                let observer = scheduler.start(disposed: 300) {
                    Observable<Int>.interval(.seconds(20), scheduler: scheduler)
                }
                #expect(
                    observer.events == [.next(220, 0), .next(240, 1), .next(260, 2), .next(280, 3)])
            }
        }

        @Test func takingFromAnIntervalCompletesAndStopsIt() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let observer = scheduler.createObserver(UInt8.self)
                let subscription = Observable<UInt8>.interval(.seconds(5), scheduler: scheduler).take(3)
                    .subscribe(observer)
                scheduler.start()
                #expect(observer.events == [.next(5, 0), .next(10, 1), .next(15, 2), .completed(15)])
                subscription.dispose()
            }
        }

        @Test func eachSubscriberGetsItsOwnTimer() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let interval = Observable<Int>.interval(.seconds(10), scheduler: scheduler)
                let first = scheduler.createObserver(Int.self)
                let second = scheduler.createObserver(Int.self)
                let bag = DisposeBag()
                interval.subscribe(first).disposed(by: bag)
                scheduler.scheduleAt(15) { interval.subscribe(second).disposed(by: bag) }
                scheduler.advanceTo(40)
                #expect(first.events == [.next(10, 0), .next(20, 1), .next(30, 2), .next(40, 3)])
                #expect(second.events == [.next(25, 0), .next(35, 1)])
            }
        }

        @Test func usesTheSchedulersResolution() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
                let observer = scheduler.start(disposed: 500) {
                    Observable<Int>.timer(.milliseconds(100), period: .milliseconds(150), scheduler: scheduler)
                }
                #expect(observer.events == [.next(300, 0), .next(450, 1)])
            }
        }
    }
}
