import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct CombineLatestCollectionTests {
        @Test func combinesTheLatestOfAllOnceAllHaveSent() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createHotObservable([.next(210, 1), .next(240, 4), .completed(300)])
                let second = scheduler.createHotObservable([.next(220, 2), .completed(250)])
                let third = scheduler.createHotObservable([.next(230, 3), .next(260, 6), .completed(400)])
                let observer = scheduler.start {
                    Observable.combineLatest([first, second, third].map { $0.asObservable() })
                }
                #expect(
                    observer.events == [
                        .next(230, [1, 2, 3]), .next(240, [4, 2, 3]), .next(260, [4, 2, 6]), .completed(400),
                    ])
                #expect(first.subscriptions == [Subscription(200, 300)])
                #expect(second.subscriptions == [Subscription(200, 250)])
                #expect(third.subscriptions == [Subscription(200, 400)])
            }
        }

        @Test func appliesTheResultSelector() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createHotObservable([.next(210, 1), .next(230, 5)])
                let second = scheduler.createHotObservable([.next(220, 2)])
                let observer = scheduler.start {
                    Observable.combineLatest([first, second]) { $0.reduce(0, +) }
                }
                #expect(observer.events == [.next(220, 3), .next(230, 7)])
                #expect(first.subscriptions == [Subscription(200, 1000)])
            }
        }

        @Test func noSourcesSendAnEmptyArrayAndComplete() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let observer = scheduler.start { Observable.combineLatest([Observable<Int>]()) }
                #expect(observer.events == [.next(200, []), .completed(200)])
            }
        }

        // RxSwift's semantics for the collection form: once a source has completed without a value, the next element
        // of the last live source completes the result.
        @Test func aSourceCompletingEmptyCompletesAtTheNextElementOfTheLastLiveOne() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(240, 3)])
                let second = scheduler.createHotObservable([.completed(220, Int.self)])
                let observer = scheduler.start { Observable.combineLatest([first, second]) }
                #expect(observer.events == [.completed(230)])
                #expect(first.subscriptions == [Subscription(200, 230)])
                #expect(second.subscriptions == [Subscription(200, 220)])
            }
        }

        @Test func aSourceCompletingEmptyWaitsWhileTwoOthersAreLive() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createHotObservable([.next(210, 1), .next(240, 3)])
                let second = scheduler.createHotObservable([.next(215, 1), .completed(250)])
                let empty = scheduler.createHotObservable([.completed(220, Int.self)])
                let observer = scheduler.start { Observable.combineLatest([first, second, empty]) }
                #expect(observer.events.isEmpty)
                #expect(first.subscriptions == [Subscription(200, 1000)])
            }
        }

        @Test func failsOnAnError() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createHotObservable([.next(210, 1), .error(230, TestError(), Int.self)])
                let second = scheduler.createHotObservable([.next(220, 2), .next(240, 3)])
                let observer = scheduler.start { Observable.combineLatest([first, second]) }
                #expect(observer.events == [.next(220, [1, 2]), .error(230, TestError())])
                #expect(second.subscriptions == [Subscription(200, 230)])
            }
        }

        @Test func failsWhenTheResultSelectorThrows() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
                let second = scheduler.createHotObservable([.next(220, 2)])
                let observer = scheduler.start {
                    Observable.combineLatest([first, second]) { values throws -> Int in
                        guard values[0] < 2 else { throw TestError(code: 2) }
                        return values[0]
                    }
                }
                #expect(observer.events == [.next(220, 1), .error(230, TestError(code: 2))])
                #expect(first.subscriptions == [Subscription(200, 230)])
            }
        }

        @Test func disposalUnsubscribesFromEverySource() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createHotObservable([.next(210, 1), .next(310, 2)])
                let second = scheduler.createHotObservable([.next(220, 2)])
                let observer = scheduler.start(disposed: 300) { Observable.combineLatest([first, second]) }
                #expect(observer.events == [.next(220, [1, 2])])
                #expect(first.subscriptions == [Subscription(200, 300)])
                #expect(second.subscriptions == [Subscription(200, 300)])
            }
        }
    }
}
