import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct ConcatSequenceTests {
        @Test func subscribesEachSourceAfterThePreviousCompletes() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createColdObservable([.next(10, 1), .completed(20)])
                let second = scheduler.createColdObservable([.next(10, 2), .next(20, 3), .completed(30)])
                let third = scheduler.createColdObservable([.next(5, 4), .completed(10)])
                let observer = scheduler.start { Observable.concat([first, second, third].map { $0.asObservable() }) }
                #expect(
                    observer.events == [.next(210, 1), .next(230, 2), .next(240, 3), .next(255, 4), .completed(260)])
                #expect(first.subscriptions == [Subscription(200, 220)])
                #expect(second.subscriptions == [Subscription(220, 250)])
                #expect(third.subscriptions == [Subscription(250, 260)])
            }
        }

        @Test func theVariadicFormConcatenatesToo() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createColdObservable([.next(10, 1), .completed(20)])
                let second = scheduler.createColdObservable([.next(10, 2), .completed(20)])
                let observer = scheduler.start { Observable.concat(first.asObservable(), second.asObservable()) }
                #expect(observer.events == [.next(210, 1), .next(230, 2), .completed(240)])
            }
        }

        @Test func noSourcesCompleteAtOnce() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let observer = scheduler.start { Observable.concat([Observable<Int>]()) }
                #expect(observer.events == [.completed(200)])
            }
        }

        @Test func anErrorFailsTheResultAndSkipsTheRest() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(), Int.self)])
                let second = scheduler.createColdObservable([.next(10, 2), .completed(20)])
                let observer = scheduler.start { Observable.concat([first.asObservable(), second.asObservable()]) }
                #expect(observer.events == [.next(210, 1), .error(220, TestError())])
                #expect(first.subscriptions == [Subscription(200, 220)])
                #expect(second.subscriptions.isEmpty)
            }
        }

        @Test func aSourceThatNeverCompletesHoldsBackTheRest() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createHotObservable([.next(210, 1)])
                let second = scheduler.createColdObservable([.next(10, 2), .completed(20)])
                let observer = scheduler.start { Observable.concat([first.asObservable(), second.asObservable()]) }
                #expect(observer.events == [.next(210, 1)])
                #expect(first.subscriptions == [Subscription(200, 1000)])
                #expect(second.subscriptions.isEmpty)
            }
        }

        @Test func disposalUnsubscribesTheCurrentSource() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createColdObservable([.next(10, 1), .completed(20)])
                let second = scheduler.createColdObservable([.next(10, 2), .next(200, 3)])
                let observer = scheduler.start(disposed: 300) {
                    Observable.concat([first.asObservable(), second.asObservable()])
                }
                #expect(observer.events == [.next(210, 1), .next(230, 2)])
                #expect(second.subscriptions == [Subscription(220, 300)])
            }
        }

        @Test func takesTheSourcesLazilyFromTheSequence() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                var taken: [TestTime] = []
                let sources = (1...3).lazy.map { n -> Observable<Int> in
                    taken.append(scheduler.clock)
                    return scheduler.createColdObservable([.next(10, n), .completed(10)]).asObservable()
                }
                let observer = scheduler.start { Observable.concat(sources) }
                #expect(observer.events == [.next(210, 1), .next(220, 2), .next(230, 3), .completed(230)])
                #expect(taken == [200, 210, 220])
            }
        }

        @Test func concatenatesManySynchronousSourcesWithoutDeepeningTheStack() {
            expectNoLeaks {
                var count = 0
                var completed = false
                _ = Observable.concat((0..<10_000).map { Observable.just($0) })
                    .subscribe(onNext: { _ in count += 1 }, onCompleted: { completed = true })
                #expect(count == 10_000)
                #expect(completed)
            }
        }
    }
}
