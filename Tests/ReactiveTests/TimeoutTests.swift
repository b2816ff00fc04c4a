import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct TimeoutTests {
        @Test func passesEventsThatArriveInTime() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(240, 1), .next(280, 2), .completed(310)])
                let observer = scheduler.start { source.timeout(.seconds(50), scheduler: scheduler) }
                #expect(observer.events == [.next(240, 1), .next(280, 2), .completed(310)])
                #expect(source.subscriptions == [Subscription(200, 310)])
            }
        }

        @Test func failsWhenTheGapAfterAnElementIsTooLong() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(240, 1), .next(300, 2)])
                let observer = scheduler.start { source.timeout(.seconds(50), scheduler: scheduler) }
                #expect(observer.events == [.next(240, 1), .error(290, RxError.timeout)])
                #expect(source.subscriptions == [Subscription(200, 290)])
            }
        }

        @Test func switchesToTheOtherSequence() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(400, 2)])
                let other = scheduler.createColdObservable([.next(10, 100), .completed(20)])
                let observer = scheduler.start {
                    source.timeout(.seconds(100), other: other, scheduler: scheduler)
                }
                #expect(observer.events == [.next(210, 1), .next(320, 100), .completed(330)])
                #expect(source.subscriptions == [Subscription(200, 310)])
                #expect(other.subscriptions == [Subscription(310, 330)])
            }
        }

        @Test func disposalCancelsTheTimer() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1)])
                let observer = scheduler.start(disposed: 250) { source.timeout(.seconds(100), scheduler: scheduler) }
                #expect(observer.events == [.next(210, 1)])
                #expect(source.subscriptions == [Subscription(200, 250)])
            }
        }
    }
}
