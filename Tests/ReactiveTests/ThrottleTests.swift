import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct ThrottleTests {
        @Test func sendsTheFirstThenTheLatestOfEachWindow() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([
                    .next(210, 1), .next(215, 2), .next(220, 3), .next(250, 4), .completed(300),
                ])
                let observer = scheduler.start { source.throttle(.seconds(20), scheduler: scheduler) }
                #expect(observer.events == [.next(210, 1), .next(230, 3), .next(250, 4), .completed(300)])
            }
        }

        @Test func withoutLatestDropsTheRestOfTheWindow() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([
                    .next(210, 1), .next(215, 2), .next(220, 3), .next(250, 4), .completed(300),
                ])
                let observer = scheduler.start {
                    source.throttle(.seconds(20), latest: false, scheduler: scheduler)
                }
                #expect(observer.events == [.next(210, 1), .next(250, 4), .completed(300)])
            }
        }

        @Test func completionWaitsForThePendingElement() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .completed(220)])
                let observer = scheduler.start { source.throttle(.seconds(20), scheduler: scheduler) }
                #expect(observer.events == [.next(210, 1), .next(230, 2), .completed(230)])
            }
        }
    }
}
