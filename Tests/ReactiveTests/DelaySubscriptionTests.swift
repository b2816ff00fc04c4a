import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct DelaySubscriptionTests {
        @Test func subscribesAfterTheDelay() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createColdObservable([.next(10, 1), .completed(20)])
                let observer = scheduler.start { source.delaySubscription(.seconds(30), scheduler: scheduler) }
                #expect(observer.events == [.next(240, 1), .completed(250)])
                #expect(source.subscriptions == [Subscription(230, 250)])
            }
        }

        @Test func disposingFirstSubscribesNothing() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createColdObservable([.next(10, 1)])
                let observer = scheduler.start(disposed: 220) {
                    source.delaySubscription(.seconds(30), scheduler: scheduler)
                }
                #expect(observer.events == [])
                #expect(source.subscriptions == [])
            }
        }

        @Test func traitsDelayTheirSubscriptionAndTime() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let delayed = scheduler.start { Maybe.just(1).delaySubscription(.seconds(2), scheduler: scheduler) }
                #expect(delayed.events == [.next(202, 1), .completed(202)])
                let timer = TestScheduler(initialClock: 0)
                #expect(
                    timer.start { Single<Int>.timer(.seconds(2), scheduler: timer) }.events == [
                        .next(202, 0), .completed(202),
                    ])
            }
        }

        @Test func debugPassesEventsThrough() {
            expectNoLeaks {
                #expect(recordedEvents { Single.just(1).debug("test") } == [.next(200, 1), .completed(200)])
            }
        }

        @Test func maybeAndCompletableEventsCompare() {
            #expect(MaybeEvent.success(1) == .success(1))
            #expect(MaybeEvent<Int>.completed != .success(1))
            #expect(MaybeEvent<Int>.error(TestError()) == .error(TestError()))
            #expect(CompletableEvent.completed != .error(TestError()))
        }
    }
}
