import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct MergeMaxConcurrentTests {
        @Test func subscribesAtMostTheLimitAndQueuesTheRest() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createColdObservable([.next(10, 1), .completed(50)])
                let second = scheduler.createColdObservable([.next(10, 2), .completed(20)])
                let third = scheduler.createColdObservable([.next(5, 3), .completed(10)])
                let outer = scheduler.createHotObservable([
                    .next(210, first.asObservable()), .next(220, second.asObservable()),
                    .next(230, third.asObservable()), .completed(240),
                ])
                let observer = scheduler.start { outer.merge(maxConcurrent: 2) }
                #expect(observer.events == [.next(220, 1), .next(230, 2), .next(245, 3), .completed(260)])
                #expect(first.subscriptions == [Subscription(210, 260)])
                #expect(second.subscriptions == [Subscription(220, 240)])
                #expect(third.subscriptions == [Subscription(240, 250)])
            }
        }

        @Test func concatRunsOneAfterAnother() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createColdObservable([.next(10, 1), .completed(20)])
                let second = scheduler.createColdObservable([.next(10, 2), .completed(20)])
                let outer = scheduler.createHotObservable([
                    .next(210, first.asObservable()), .next(215, second.asObservable()), .completed(216),
                ])
                let observer = scheduler.start { outer.concat() }
                #expect(observer.events == [.next(220, 1), .next(240, 2), .completed(250)])
            }
        }

        @Test func anInnerErrorFailsEverything() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let failing = scheduler.createColdObservable([.error(10, TestError(), Int.self)])
                let never = scheduler.createColdObservable([.next(100, 1)])
                let outer = scheduler.createHotObservable([
                    .next(210, never.asObservable()), .next(220, failing.asObservable()),
                ])
                let observer = scheduler.start { outer.merge(maxConcurrent: 3) }
                #expect(observer.events == [.error(230, TestError())])
                #expect(never.subscriptions == [Subscription(210, 230)])
                #expect(outer.subscriptions == [Subscription(200, 230)])
            }
        }

        @Test func theStaticFormMergesACollection() {
            expectNoLeaks {
                let events = recordedEvents {
                    Observable.merge([Observable.of(1, 2), Observable.of(3)], maxConcurrent: 1)
                }
                #expect(events == [.next(200, 1), .next(200, 2), .next(200, 3), .completed(200)])
            }
        }
    }
}
