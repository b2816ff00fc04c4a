import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct CombineLatestTests {
        @Test func combinesTheLatestOfTwoOnceBothHaveSent() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let numbers = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
                let letters = scheduler.createHotObservable([.next(220, "a"), .next(240, "b"), .completed(250)])
                let observer = scheduler.start {
                    Observable.combineLatest(numbers, letters) { "\($0)\($1)" }
                }
                #expect(
                    observer.events == [.next(220, "1a"), .next(230, "2a"), .next(240, "2b"), .completed(300)])
            }
        }

        @Test func combinesThreeIntoTuples() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createHotObservable([.next(210, 1)])
                let second = scheduler.createHotObservable([.next(220, 2)])
                let third = scheduler.createHotObservable([.next(230, 3), .next(240, 4)])
                let observer = scheduler.start {
                    Observable<(Int, Int, Int)>.combineLatest(first, second, third).map { [$0.0, $0.1, $0.2] }
                }
                #expect(observer.events == [.next(230, [1, 2, 3]), .next(240, [1, 2, 4])])
            }
        }

        // RxSwift's semantics: once a source has completed without a value, nothing can ever be combined; the next
        // element of the last live source ends the result.
        @Test func aSourceCompletingEmptyEndsTheResultAtTheOthersNextElement() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
                let second = scheduler.createHotObservable([.completed(220, Int.self)])
                let observer = scheduler.start { Observable<(Int, Int)>.combineLatest(first, second).map { $0.0 } }
                #expect(observer.events == [.completed(230)])
                #expect(first.subscriptions == [Subscription(200, 230)])
                #expect(second.subscriptions == [Subscription(200, 220)])
            }
        }

        @Test func aSourceCompletingEmptyBesideOneThatNeverEndsNeverCompletes() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createHotObservable([.next(210, 1)])
                let second = scheduler.createHotObservable([.completed(220, Int.self)])
                let observer = scheduler.start { Observable<(Int, Int)>.combineLatest(first, second).map { $0.0 } }
                #expect(observer.events.isEmpty)
                #expect(first.subscriptions == [Subscription(200, 1000)])
            }
        }

        @Test func failsOnAnError() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createHotObservable([.next(210, 1), .error(230, TestError())])
                let second = scheduler.createHotObservable([.next(220, 2), .next(240, 3)])
                let observer = scheduler.start { Observable.combineLatest(first, second) { $0 + $1 } }
                #expect(observer.events == [.next(220, 3), .error(230, TestError())])
            }
        }
    }
}
