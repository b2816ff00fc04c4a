import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    /// RxSwift 6's rule for when `zip` completes: when every source has, and not before (RxSwift's
    /// `testZip_EmptyNonEmpty`, `_NonEmptyEmpty`, `_AllCompleted2`, `_AllCompleted3`, in our words).
    @Suite struct ZipCompletionTests {
        @Test func anEmptySourceFirstThenAnElementOfTheOtherCompletesWhenTheOtherDoes() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let empty = scheduler.createHotObservable([.next(150, 1), .completed(210)])
                let other = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
                let observer = scheduler.start { Observable.zip(empty, other) { $0 + $1 } }
                #expect(observer.events == [.completed(220)])
                #expect(empty.subscriptions == [Subscription(200, 210)])
                #expect(other.subscriptions == [Subscription(200, 220)])
            }
        }

        @Test func theSameWithTheSourcesSwapped() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let empty = scheduler.createHotObservable([.next(150, 1), .completed(210)])
                let other = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
                let observer = scheduler.start { Observable.zip(other, empty) { $0 + $1 } }
                #expect(observer.events == [.completed(220)])
                #expect(empty.subscriptions == [Subscription(200, 210)])
                #expect(other.subscriptions == [Subscription(200, 220)])
            }
        }

        @Test func twoSourcesCompleteWhenTheLaterOneDoesDespiteAnUnpairedElement() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createHotObservable([.next(150, 1), .next(210, 5), .completed(220)])
                let second = scheduler.createHotObservable([
                    .next(150, 1), .next(210, 5), .next(220, 6), .completed(230),
                ])
                let withSelector = scheduler.start { Observable.zip(first, second) { $0 + $1 } }
                #expect(withSelector.events == [.next(210, 10), .completed(230)])
                #expect(first.subscriptions == [Subscription(200, 220)])
                #expect(second.subscriptions == [Subscription(200, 230)])
            }
        }

        @Test func threeSourcesCompleteWhenTheLastOneDoes() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createHotObservable([.next(210, 5), .completed(220)])
                let second = scheduler.createHotObservable([.next(210, 5), .next(220, 6), .completed(230)])
                let third = scheduler.createHotObservable([
                    .next(210, 5), .next(220, 6), .next(230, 7), .completed(240),
                ])
                let observer = scheduler.start {
                    Observable<(Int, Int, Int)>.zip(first, second, third).map { $0.0 + $0.1 + $0.2 }
                }
                #expect(observer.events == [.next(210, 15), .completed(240)])
                #expect(first.subscriptions == [Subscription(200, 220)])
                #expect(second.subscriptions == [Subscription(200, 230)])
                #expect(third.subscriptions == [Subscription(200, 240)])
            }
        }

        @Test func anArrayOfSourcesFollowsTheSameRule() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createHotObservable([.next(210, 1), .completed(220)])
                let second = scheduler.createHotObservable([.next(210, 2), .next(225, 3), .completed(260)])
                let observer = scheduler.start {
                    Observable.zip([first.asObservable(), second.asObservable()]) { $0.reduce(0, +) }
                }
                #expect(observer.events == [.next(210, 3), .completed(260)])
            }
        }

        @Test func zipsFourSourcesWithASelector() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let s = (1...4).map { index in
                    scheduler.createColdObservable([.next(index * 10, index), .completed(100 + index)]).asObservable()
                }
                let observer = scheduler.start { Observable.zip(s[0], s[1], s[2], s[3]) { $0 + $1 + $2 + $3 } }
                #expect(observer.events == [.next(240, 10), .completed(304)])
            }
        }

        @Test func zipsEightFreshSources() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let s = (1...8).map { index in
                    scheduler.createColdObservable([.next(index * 10, index), .completed(100 + index)]).asObservable()
                }
                let eight = scheduler.start {
                    Observable<(Int, Int, Int, Int, Int, Int, Int, Int)>.zip(
                        s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]
                    ).map { $0.0 + $0.7 }
                }
                #expect(eight.events == [.next(280, 9), .completed(308)])
            }
        }
    }
}
