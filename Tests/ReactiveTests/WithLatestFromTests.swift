import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct WithLatestFromTests {
        @Test func samplesTheSecondOnEachElementOfTheFirst() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let taps = scheduler.createHotObservable([
                    .next(210, ()), .next(230, ()), .next(250, ()), .completed(260),
                ])
                let form = scheduler.createHotObservable([.next(220, "a"), .next(240, "b"), .completed(245)])
                let observer = scheduler.start { taps.withLatestFrom(form) }
                #expect(observer.events == [.next(230, "a"), .next(250, "b"), .completed(260)])
            }
        }

        @Test func combinesWithAResultSelector() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createHotObservable([.next(220, 1)])
                let second = scheduler.createHotObservable([.next(210, 10)])
                let observer = scheduler.start { first.withLatestFrom(second) { $0 + $1 } }
                #expect(observer.events == [.next(220, 11)])
            }
        }

        @Test func failsWhenTheSecondFails() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createHotObservable([.next(230, 1)])
                let second = scheduler.createHotObservable([.error(210, TestError(), Int.self)])
                let observer = scheduler.start { first.withLatestFrom(second) }
                #expect(observer.events == [.error(210, TestError())])
            }
        }
    }
}
