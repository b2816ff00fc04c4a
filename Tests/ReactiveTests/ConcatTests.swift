import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct ConcatTests {
        @Test func subscribesTheSecondAfterTheFirstCompletes() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createColdObservable([.next(10, 1), .completed(20)])
                let second = scheduler.createColdObservable([.next(10, 2), .completed(20)])
                let observer = scheduler.start { first.concat(second) }
                #expect(observer.events == [.next(210, 1), .next(230, 2), .completed(240)])
                #expect(second.subscriptions == [Subscription(220, 240)])
            }
        }
    }
}
