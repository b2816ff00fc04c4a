import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct SkipUntilTests {
        @Test func sendsTheElementsAfterTheOtherSends() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([
                    .next(210, 1), .next(230, 2), .next(240, 3), .completed(250),
                ])
                let other = scheduler.createHotObservable([.next(225, "go"), .next(235, "again")])
                let observer = scheduler.start { source.skip(until: other) }
                #expect(observer.events == [.next(230, 2), .next(240, 3), .completed(250)])
                #expect(other.subscriptions == [Subscription(200, 225)])
            }
        }

        @Test func completionBeforeTheOtherSendsSendsNothing() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .completed(250)])
                let other = scheduler.createHotObservable([.next(300, "go")])
                let observer = scheduler.start { source.skip(until: other) }
                #expect(observer.events == [])
                #expect(other.subscriptions == [Subscription(200, 250)])
            }
        }

        @Test func theOthersErrorFails() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1)])
                let other = scheduler.createHotObservable([.error(220, TestError(), String.self)])
                let observer = scheduler.start { source.skip(until: other) }
                #expect(observer.events == [.error(220, TestError())])
                #expect(source.subscriptions == [Subscription(200, 220)])
            }
        }
    }
}
