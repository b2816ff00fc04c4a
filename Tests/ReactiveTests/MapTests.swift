import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct MapTests {
        @Test func transformsEachElementAndKeepsTheStopEvent() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([
                    .next(150, 1), .next(210, 2), .next(220, 3), .completed(300), .next(310, 9),
                ])
                let observer = scheduler.start { source.map { $0 * 10 } }
                #expect(observer.events == [.next(210, 20), .next(220, 30), .completed(300)])
                #expect(source.subscriptions == [Subscription(200, 300)])
            }
        }

        @Test func failsWhenTheTransformThrowsAndUnsubscribes() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
                let observer = scheduler.start {
                    source.map { value -> Int in
                        if value == 2 { throw TestError() }
                        return value
                    }
                }
                #expect(observer.events == [.next(210, 1), .error(220, TestError())])
                #expect(source.subscriptions == [Subscription(200, 220)])
            }
        }

        @Test func stopsDeliveringWhenDisposed() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(260, 2)])
                let observer = scheduler.start(disposed: 250) { source.map { $0 + 1 } }
                #expect(observer.events == [.next(210, 2)])
                #expect(source.subscriptions == [Subscription(200, 250)])
            }
        }
    }
}
