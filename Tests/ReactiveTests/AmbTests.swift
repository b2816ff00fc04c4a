import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct AmbTests {
        @Test func mirrorsTheFirstToSendAndDropsTheOther() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let slow = scheduler.createHotObservable([.next(230, 1), .completed(300)])
                let fast = scheduler.createHotObservable([.next(220, 2), .next(240, 3), .completed(250)])
                let observer = scheduler.start { slow.asObservable().amb(fast) }
                #expect(observer.events == [.next(220, 2), .next(240, 3), .completed(250)])
                #expect(slow.subscriptions == [Subscription(200, 220)])
                #expect(fast.subscriptions == [Subscription(200, 250)])
            }
        }

        @Test func aStopEventAlsoWins() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let failing = scheduler.createHotObservable([.error(210, TestError(), Int.self)])
                let other = scheduler.createHotObservable([.next(220, 2)])
                let third = scheduler.createHotObservable([.next(230, 3)])
                let observer = scheduler.start {
                    Observable.amb([failing.asObservable(), other.asObservable(), third.asObservable()])
                }
                #expect(observer.events == [.error(210, TestError())])
                #expect(other.subscriptions == [Subscription(200, 210)])
                #expect(third.subscriptions == [Subscription(200, 210)])
            }
        }
    }
}
