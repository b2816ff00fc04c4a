import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct TakeUntilTests {
        @Test func completesWhenTheOtherSends() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3)])
                let other = scheduler.createHotObservable([.next(230, "stop")])
                let observer = scheduler.start { source.take(until: other) }
                #expect(observer.events == [.next(210, 1), .next(220, 2), .completed(230)])
                #expect(source.subscriptions == [Subscription(200, 230)])
                #expect(other.subscriptions == [Subscription(200, 230)])
            }
        }

        @Test func theOthersCompletionChangesNothing() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(240, 3), .completed(300)])
                let other = scheduler.createHotObservable([.completed(230, String.self)])
                let observer = scheduler.start { source.take(until: other) }
                #expect(observer.events == [.next(210, 1), .next(240, 3), .completed(300)])
                #expect(other.subscriptions == [Subscription(200, 230)])
            }
        }

        @Test func theOthersErrorFails() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(240, 3)])
                let other = scheduler.createHotObservable([.error(230, TestError(), String.self)])
                let observer = scheduler.start { source.take(until: other) }
                #expect(observer.events == [.next(210, 1), .error(230, TestError())])
                #expect(source.subscriptions == [Subscription(200, 230)])
            }
        }

        @Test func anOtherThatSendsAtOnceSubscribesNothing() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1)])
                let observer = scheduler.start { source.take(until: Observable.just(0)) }
                #expect(observer.events == [.completed(200)])
                #expect(source.subscriptions == [])
            }
        }
    }
}
