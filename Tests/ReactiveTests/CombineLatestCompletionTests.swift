import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    /// RxSwift's rule for when `combineLatest` completes: when every source has, or, once every source but one has
    /// completed and one of them never sent, at the next element of the live one (RxSwift's
    /// `testCombineLatest_EmptyReturn`, `_ReturnEmpty`, `_WillNeverBeAbleToCombine2…8`, in our words).
    @Suite struct CombineLatestCompletionTests {
        @Test func anEmptySourceThenAnElementOfTheOtherCompletesAtThatElement() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let empty = scheduler.createHotObservable([.next(150, 1), .completed(210)])
                let other = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
                let observer = scheduler.start { Observable.combineLatest(empty, other) { $0 + $1 } }
                #expect(observer.events == [.completed(215)])
                #expect(empty.subscriptions == [Subscription(200, 210)])
                #expect(other.subscriptions == [Subscription(200, 215)])
            }
        }

        @Test func theSameWithTheSourcesSwapped() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let other = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
                let empty = scheduler.createHotObservable([.next(150, 1), .completed(210)])
                let observer = scheduler.start { Observable<(Int, Int)>.combineLatest(other, empty).map { $0 + $1 } }
                #expect(observer.events == [.completed(215)])
                #expect(other.subscriptions == [Subscription(200, 215)])
                #expect(empty.subscriptions == [Subscription(200, 210)])
            }
        }

        @Test func anEmptySourceBesideOneThatNeverSendsNeverCompletes() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let empty = scheduler.createHotObservable([.completed(210, Int.self)])
                let silent = scheduler.createHotObservable([.next(150, 1)])
                let observer = scheduler.start { Observable.combineLatest(empty, silent) { $0 + $1 } }
                #expect(observer.events == [])
                #expect(silent.subscriptions == [Subscription(200, 1000)])
            }
        }

        /// Every source but the last completes empty at 250 + its index; the last sends at 500: that element ends
        /// the result, for two to eight sources.
        @Test(arguments: 2...8) func sourcesThatCanNeverCombineCompleteAtTheLastOnesElement(count: Int) {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                var sources = (0..<(count - 1)).map { index in
                    scheduler.createHotObservable([.next(150, 1), .completed(250 + index, Int.self)])
                }
                sources.append(scheduler.createHotObservable([.next(150, 1), .next(500, 2), .completed(800)]))
                let s = sources.map { $0.asObservable() }
                let observer = scheduler.start { () -> Observable<Int> in
                    switch count {
                    case 2: return Observable.combineLatest(s[0], s[1]) { $0 + $1 }
                    case 3: return Observable.combineLatest(s[0], s[1], s[2]) { $0 + $1 + $2 }
                    case 4: return Observable.combineLatest(s[0], s[1], s[2], s[3]) { $0 + $1 + $2 + $3 }
                    case 5:
                        return Observable.combineLatest(s[0], s[1], s[2], s[3], s[4]) { $0 + $1 + $2 + $3 + $4 }
                    case 6:
                        return Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]) { _, _, _, _, _, f in f }
                    case 7:
                        return Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) {
                            _, _, _, _, _, _, g in g
                        }
                    default:
                        return Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) {
                            _, _, _, _, _, _, _, h in h
                        }
                    }
                }
                #expect(observer.events == [.completed(500)])
                for (index, source) in sources.dropLast().enumerated() {
                    #expect(source.subscriptions == [Subscription(200, 250 + index)])
                }
                #expect(sources.last?.subscriptions == [Subscription(200, 500)])
            }
        }

        @Test func anArrayOfSourcesFollowsTheSameRule() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let empty = scheduler.createHotObservable([.completed(210, Int.self)])
                let other = scheduler.createHotObservable([.next(220, 2), .completed(300)])
                let observer = scheduler.start {
                    Observable.combineLatest([empty.asObservable(), other.asObservable()]) { $0.reduce(0, +) }
                }
                #expect(observer.events == [.completed(220)])
            }
        }
    }
}
