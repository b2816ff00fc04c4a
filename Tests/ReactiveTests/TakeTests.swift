import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct TakeTests {
        @Test func completesAfterTheCountAndUnsubscribes() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
                let observer = scheduler.start { source.take(2) }
                #expect(observer.events == [.next(210, 1), .next(220, 2), .completed(220)])
                #expect(source.subscriptions == [Subscription(200, 220)])
            }
        }

        @Test func takeZeroCompletesAtOnce() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1)])
                let observer = scheduler.start { source.take(0) }
                #expect(observer.events == [.completed(200)])
                #expect(source.subscriptions.isEmpty)
            }
        }

        @Test func stopsAnInfiniteSynchronousSource() {
            expectNoLeaks {
                var received: [Int] = []
                _ = Observable.from(1...).take(3).subscribe(onNext: { received.append($0) })
                #expect(received == [1, 2, 3])
            }
        }

        @Test func takeWhileCompletesAtTheFirstMismatch() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(220, 5), .next(230, 2)])
                let observer = scheduler.start { source.take(while: { $0 < 3 }) }
                #expect(observer.events == [.next(210, 1), .completed(220)])
            }
        }
    }
}
