import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct SampleTests {
        @Test func sendsTheLatestElementAtEachSampleOnlyIfNew() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([
                    .next(210, 1), .next(220, 2), .next(260, 3), .completed(400),
                ])
                let sampler = scheduler.createHotObservable([
                    .next(230, "tick"), .next(240, "tick"), .next(270, "tick"), .completed(300),
                ])
                let observer = scheduler.start { source.sample(sampler) }
                // The sampler completed before the source: nothing ends the result (as RxSwift's).
                #expect(observer.events == [.next(230, 2), .next(270, 3)])
                #expect(source.subscriptions == [Subscription(200, 400)])
            }
        }

        @Test func completesAtTheFirstSampleAfterTheSourceCompleted() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .completed(220)])
                let sampler = scheduler.createHotObservable([.next(230, "tick"), .next(240, "tick")])
                let observer = scheduler.start { source.sample(sampler) }
                #expect(observer.events == [.next(230, 1), .completed(230)])
                #expect(sampler.subscriptions == [Subscription(200, 230)])
            }
        }

        @Test func sendsTheDefaultWhenNothingNewArrived() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1)])
                let sampler = scheduler.createHotObservable([.next(230, "tick"), .next(240, "tick")])
                let observer = scheduler.start { source.sample(sampler, defaultValue: 0) }
                #expect(observer.events == [.next(230, 1), .next(240, 0)])
            }
        }

        @Test func failsWhenEitherFails() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1)])
                let sampler = scheduler.createHotObservable([.error(230, TestError(), String.self)])
                let observer = scheduler.start { source.sample(sampler) }
                #expect(observer.events == [.error(230, TestError())])
                #expect(source.subscriptions == [Subscription(200, 230)])
            }
        }
    }
}
