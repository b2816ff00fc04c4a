import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct DistinctUntilChangedTests {
        @Test func dropsConsecutiveDuplicates() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([
                    .next(210, 1), .next(220, 1), .next(230, 2), .next(240, 1), .next(250, 1), .completed(260),
                ])
                let observer = scheduler.start { source.distinctUntilChanged() }
                #expect(observer.events == [.next(210, 1), .next(230, 2), .next(240, 1), .completed(260)])
            }
        }

        @Test func comparesByKey() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([
                    .next(210, "apple"), .next(220, "avocado"), .next(230, "banana"), .completed(240),
                ])
                let observer = scheduler.start { source.distinctUntilChanged { $0.first } }
                #expect(observer.events == [.next(210, "apple"), .next(230, "banana"), .completed(240)])
            }
        }

        @Test func comparesWithAComparer() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 10), .next(220, 12), .next(230, 20)])
                let observer = scheduler.start { source.distinctUntilChanged { abs($0 - $1) < 5 } }
                #expect(observer.events == [.next(210, 10), .next(230, 20)])
            }
        }

        @Test func comparesAtAKeyPath() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, "a"), .next(220, "b"), .next(230, "cc")])
                let observer = scheduler.start { source.distinctUntilChanged(at: \.count) }
                #expect(observer.events == [.next(210, "a"), .next(230, "cc")])
            }
        }

        @Test func failsWhenTheKeySelectorThrows() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1)])
                let observer = scheduler.start {
                    source.distinctUntilChanged { (_: Int) -> Int in throw TestError() }
                }
                #expect(observer.events == [.error(210, TestError())])
            }
        }
    }
}
