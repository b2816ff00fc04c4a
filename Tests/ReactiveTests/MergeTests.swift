import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct MergeTests {
        @Test func interleavesAndCompletesWhenAllComplete() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createHotObservable([.next(210, 1), .next(230, 3), .completed(240)])
                let second = scheduler.createHotObservable([.next(220, 2), .next(250, 4), .completed(260)])
                let observer = scheduler.start {
                    Observable.merge(first.asObservable(), second.asObservable())
                }
                #expect(
                    observer.events == [.next(210, 1), .next(220, 2), .next(230, 3), .next(250, 4), .completed(260)])
            }
        }

        @Test func failsOnTheFirstErrorAndDisposesTheOthers() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createHotObservable([.next(210, 1), .error(220, TestError())])
                let second = scheduler.createHotObservable([.next(230, 2)])
                let observer = scheduler.start { Observable.merge(first.asObservable(), second.asObservable()) }
                #expect(observer.events == [.next(210, 1), .error(220, TestError())])
                #expect(second.subscriptions == [Subscription(200, 220)])
            }
        }

        @Test func mergesASequenceOfSequences() {
            expectNoLeaks {
                var received: [Int] = []
                _ = Observable.of(Observable.of(1, 2), Observable.of(3)).merge().subscribe(onNext: {
                    received.append($0)
                })
                #expect(received == [1, 2, 3])
            }
        }
    }
}
