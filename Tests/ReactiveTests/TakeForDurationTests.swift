import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct TakeForDurationTests {
        @Test func completesWhenTheDurationEnds() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .next(260, 3)])
                let observer = scheduler.start { source.take(for: .seconds(50), scheduler: scheduler) }
                #expect(observer.events == [.next(210, 1), .next(240, 2), .completed(250)])
                #expect(source.subscriptions == [Subscription(200, 250)])
            }
        }

        @Test func anEarlierCompletionCancelsTheTimer() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .completed(220)])
                let observer = scheduler.start { source.take(for: .seconds(50), scheduler: scheduler) }
                #expect(observer.events == [.next(210, 1), .completed(220)])
            }
        }

        @Test func skipForADurationDropsTheEarlyElements() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(270)])
                let observer = scheduler.start { source.skip(.seconds(50), scheduler: scheduler) }
                #expect(observer.events == [.next(260, 2), .completed(270)])
            }
        }
    }
}
