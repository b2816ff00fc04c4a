import Foundation
import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct ZipTests {
        @Test func pairsTheElementsOfTwoByIndex() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let numbers = scheduler.createHotObservable([
                    .next(210, 1), .next(220, 2), .next(230, 3), .completed(300),
                ])
                let letters = scheduler.createHotObservable([
                    .next(215, "a"), .next(240, "b"), .next(250, "c"), .completed(400),
                ])
                let observer = scheduler.start { Observable.zip(numbers, letters) { "\($0)\($1)" } }
                // As RxSwift's: completed once both sources have.
                #expect(
                    observer.events == [.next(215, "1a"), .next(240, "2b"), .next(250, "3c"), .completed(400)])
                #expect(numbers.subscriptions == [Subscription(200, 300)])
                #expect(letters.subscriptions == [Subscription(200, 400)])
            }
        }

        @Test func anUnpairedElementWaitsUntilEverySourceHasCompleted() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let numbers = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
                let letters = scheduler.createHotObservable([
                    .next(240, "a"), .next(250, "b"), .next(260, "c"), .completed(270),
                ])
                let observer = scheduler.start { Observable.zip(numbers, letters) { "\($0)\($1)" } }
                // As RxSwift 6's: "c" can never be paired, but only the completion of both ends the result.
                #expect(observer.events == [.next(240, "1a"), .next(250, "2b"), .completed(270)])
                #expect(numbers.subscriptions == [Subscription(200, 230)])
                #expect(letters.subscriptions == [Subscription(200, 270)])
            }
        }

        @Test func aSourceCompletingEmptyDoesNotEndTheResultWhileAnotherLives() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let numbers = scheduler.createHotObservable([.next(215, 1)])
                let empty = scheduler.createHotObservable([.completed(210, Int.self)])
                let observer = scheduler.start { Observable.zip(numbers, empty) { $0 + $1 } }
                #expect(observer.events == [])
                #expect(numbers.subscriptions == [Subscription(200, 1000)])
                #expect(empty.subscriptions == [Subscription(200, 210)])
            }
        }

        @Test func neverCompletesWhileNeitherSourceDoes() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let numbers = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
                let others = scheduler.createHotObservable([.next(230, 10)])
                let observer = scheduler.start { Observable.zip(numbers, others) { $0 + $1 } }
                #expect(observer.events == [.next(230, 11)])
                #expect(numbers.subscriptions == [Subscription(200, 1000)])
                #expect(others.subscriptions == [Subscription(200, 1000)])
            }
        }

        @Test func failsOnAnErrorOfEitherSource() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let numbers = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
                let others = scheduler.createHotObservable([.next(215, 10), .error(230, TestError(), Int.self)])
                let observer = scheduler.start { Observable.zip(numbers, others) { $0 + $1 } }
                #expect(observer.events == [.next(215, 11), .error(230, TestError())])
                #expect(numbers.subscriptions == [Subscription(200, 230)])
                #expect(others.subscriptions == [Subscription(200, 230)])
            }
        }

        @Test func failsWhenTheResultSelectorThrows() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let numbers = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
                let others = scheduler.createHotObservable([.next(215, 10), .next(225, 20)])
                let observer = scheduler.start {
                    Observable.zip(numbers, others) { (first: Int, second: Int) throws -> Int in
                        guard first < 2 else { throw TestError(code: 2) }
                        return first + second
                    }
                }
                #expect(observer.events == [.next(215, 11), .error(225, TestError(code: 2))])
                #expect(numbers.subscriptions == [Subscription(200, 225)])
            }
        }

        @Test func disposalUnsubscribesFromEverySource() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let numbers = scheduler.createHotObservable([.next(210, 1), .next(320, 2)])
                let others = scheduler.createHotObservable([.next(215, 10), .next(330, 20)])
                let observer = scheduler.start(disposed: 300) { Observable.zip(numbers, others) { $0 + $1 } }
                #expect(observer.events == [.next(215, 11)])
                #expect(numbers.subscriptions == [Subscription(200, 300)])
                #expect(others.subscriptions == [Subscription(200, 300)])
            }
        }

        @Test func zipsThreeIntoTuples() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createHotObservable([.next(210, 1), .next(240, 4), .completed(250)])
                let second = scheduler.createHotObservable([.next(220, 2), .next(245, 5), .next(260, 8)])
                let third = scheduler.createColdObservable([.next(30, 3), .next(50, 6)])
                let observer = scheduler.start {
                    Observable<(Int, Int, Int)>.zip(first, second, third).map { [$0.0, $0.1, $0.2] }
                }
                // The third never completes: 8 cannot be paired yet, and nothing completes.
                #expect(observer.events == [.next(230, [1, 2, 3]), .next(250, [4, 5, 6])])
                #expect(third.subscriptions == [Subscription(200, 1000)])
            }
        }

        @Test func zipsAnArrayOfSources() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
                let second = scheduler.createHotObservable([.next(215, 10), .next(240, 20), .completed(250)])
                let third = scheduler.createHotObservable([.next(212, 100), .next(245, 200), .next(246, 300)])
                let observer = scheduler.start { Observable.zip([first, second, third].map { $0.asObservable() }) }
                // 300 arrives while the second has not completed, and the third never does: no completion.
                #expect(observer.events == [.next(215, [1, 10, 100]), .next(245, [2, 20, 200])])
                #expect(first.subscriptions == [Subscription(200, 230)])
                #expect(third.subscriptions == [Subscription(200, 1000)])
            }
        }

        @Test func anEmptyArrayCompletesAtOnce() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let observer = scheduler.start { Observable.zip([Observable<Int>]()) }
                #expect(observer.events == [.completed(200)])
            }
        }

        @Test func theArrayFormTakesAResultSelector() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createHotObservable([.next(210, 1), .error(260, TestError(), Int.self)])
                let second = scheduler.createHotObservable([.next(220, 2), .next(230, 3)])
                let observer = scheduler.start {
                    Observable.zip([first.asObservable(), second.asObservable()]) { $0.reduce(0, +) }
                }
                #expect(observer.events == [.next(220, 3), .error(260, TestError())])
                #expect(second.subscriptions == [Subscription(200, 260)])
            }
        }

        @Test func sourcesOnTwoThreadsArePairedInOrderAndDeliveredOneAtATime() {
            expectNoLeaks {
                let count = 5_000
                let first = PublishSubject<Int>()
                let second = PublishSubject<Int>()
                let checker = GrammarChecker()
                let pairs = Collector<Bool>()
                let subscription = Observable.zip(first, second) { ($0, $1) }
                    .subscribe(
                        onNext: { pair in
                            pairs.append(pair.0 == pair.1)
                            checker.onNext(pair.0)
                        }, onCompleted: { checker.onStop() })
                onThreads(2) { index in
                    let subject = index == 0 ? first : second
                    for value in 0..<count { subject.onNext(value) }
                    subject.onCompleted()
                }
                #expect(checker.violations == [])
                #expect(checker.count == count)
                #expect(checker.stops == 1)
                #expect(pairs.values.allSatisfy { $0 })
                subscription.dispose()
            }
        }

        @Test func zipsSynchronousSources() {
            expectNoLeaks {
                var received: [String] = []
                var completed = false
                _ = Observable.zip(Observable.of(1, 2, 3), Observable.of("a", "b")) { "\($0)\($1)" }
                    .subscribe(onNext: { received.append($0) }, onCompleted: { completed = true })
                #expect(received == ["1a", "2b"])
                #expect(completed)
            }
        }
    }
}
