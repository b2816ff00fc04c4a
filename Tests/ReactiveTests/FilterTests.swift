import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct FilterTests {
        @Test func keepsMatchingElements() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([
                    .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250),
                ])
                let observer = scheduler.start { source.filter { $0.isMultiple(of: 2) } }
                #expect(observer.events == [.next(220, 2), .next(240, 4), .completed(250)])
            }
        }

        @Test func failsWhenThePredicateThrows() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
                let observer = scheduler.start { source.filter { _ in throw TestError() } }
                #expect(observer.events == [.error(210, TestError())])
                #expect(source.subscriptions == [Subscription(200, 210)])
            }
        }
    }
}
