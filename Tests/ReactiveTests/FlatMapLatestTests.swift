import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct FlatMapLatestTests {
        @Test func switchesToTheLatestInnerSequence() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let inner = scheduler.createColdObservable([.next(10, 1), .next(30, 2), .completed(40)])
                let outer = scheduler.createHotObservable([.next(210, 10), .next(225, 20), .completed(230)])
                let observer = scheduler.start { outer.flatMapLatest { n in inner.map { $0 + n } } }
                #expect(observer.events == [.next(220, 11), .next(235, 21), .next(255, 22), .completed(265)])
                #expect(inner.subscriptions == [Subscription(210, 225), Subscription(225, 265)])
            }
        }

        @Test func completesWhenTheOuterCompletesAfterTheInner() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let outer = scheduler.createHotObservable([.next(210, 1), .completed(300)])
                let observer = scheduler.start { outer.flatMapLatest { Observable.just($0) } }
                #expect(observer.events == [.next(210, 1), .completed(300)])
            }
        }

        @Test func innerErrorFailsTheResult() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let outer = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
                let observer = scheduler.start {
                    outer.flatMapLatest { _ in Observable<Int>.error(TestError()) }
                }
                #expect(observer.events == [.error(210, TestError())])
                #expect(outer.subscriptions == [Subscription(200, 210)])
            }
        }
    }
}
