import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct FlatMapTests {
        @Test func mergesTheInnerSequences() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let inner = scheduler.createColdObservable([.next(10, "x"), .next(30, "y"), .completed(40)])
                let outer = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
                let observer = scheduler.start { outer.flatMap { n in inner.map { "\($0)\(n)" } } }
                #expect(
                    observer.events == [
                        .next(220, "x1"), .next(230, "x2"), .next(240, "y1"), .next(250, "y2"), .completed(260),
                    ])
                #expect(inner.subscriptions == [Subscription(210, 250), Subscription(220, 260)])
            }
        }

        @Test func failsWhenTheSelectorThrows() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let outer = scheduler.createHotObservable([.next(210, 1)])
                let observer = scheduler.start {
                    outer.flatMap { _ -> Observable<Int> in throw TestError() }
                }
                #expect(observer.events == [.error(210, TestError())])
                #expect(outer.subscriptions == [Subscription(200, 210)])
            }
        }

        @Test func innerErrorFailsTheResult() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let inner = scheduler.createColdObservable([.error(5, TestError(), Int.self)])
                let outer = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
                let observer = scheduler.start { outer.flatMap { _ in inner } }
                #expect(observer.events == [.error(215, TestError())])
                #expect(outer.subscriptions == [Subscription(200, 215)])
            }
        }
    }
}
