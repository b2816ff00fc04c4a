import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct ConcatMapTests {
        @Test func subscribesEachInnerSequenceAfterThePreviousCompletes() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let inner = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
                let outer = scheduler.createHotObservable([
                    .next(210, 10), .next(215, 20), .next(250, 30), .completed(260),
                ])
                let observer = scheduler.start { outer.concatMap { n in inner.map { $0 + n } } }
                #expect(
                    observer.events == [
                        .next(220, 11), .next(230, 12), .next(250, 21), .next(260, 22), .next(280, 31),
                        .next(290, 32), .completed(300),
                    ])
                #expect(
                    inner.subscriptions == [Subscription(210, 240), Subscription(240, 270), Subscription(270, 300)])
                #expect(outer.subscriptions == [Subscription(200, 260)])
            }
        }

        @Test func completesWhenTheOuterCompletesAfterTheLastInner() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let inner = scheduler.createColdObservable([.next(10, 1), .completed(20)])
                let outer = scheduler.createHotObservable([.next(210, 1), .completed(300)])
                let observer = scheduler.start { outer.concatMap { _ in inner } }
                #expect(observer.events == [.next(220, 1), .completed(300)])
                #expect(inner.subscriptions == [Subscription(210, 230)])
            }
        }

        @Test func mapsEachElementWhenItArrives() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                var mapped: [TestTime] = []
                let outer = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
                let observer = scheduler.start {
                    outer.concatMap { n -> Observable<Int> in
                        mapped.append(scheduler.clock)
                        return scheduler.createColdObservable([.next(50, n), .completed(50)]).asObservable()
                    }
                }
                #expect(mapped == [210, 220])
                #expect(observer.events == [.next(260, 1), .next(310, 2), .completed(310)])
            }
        }

        @Test func innerErrorFailsTheResultAndDropsTheWaitingOnes() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let failing = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(), Int.self)])
                let waiting = scheduler.createColdObservable([.next(10, 2)])
                let outer = scheduler.createHotObservable([.next(210, 0), .next(215, 1), .next(300, 2)])
                let observer = scheduler.start { outer.concatMap { $0 == 0 ? failing : waiting } }
                #expect(observer.events == [.next(220, 1), .error(230, TestError())])
                #expect(failing.subscriptions == [Subscription(210, 230)])
                #expect(waiting.subscriptions.isEmpty)
                #expect(outer.subscriptions == [Subscription(200, 230)])
            }
        }

        @Test func outerErrorFailsTheResultAndDisposesTheInner() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let inner = scheduler.createColdObservable([.next(10, 1), .next(50, 2)])
                let outer = scheduler.createHotObservable([.next(210, 1), .error(240, TestError(), Int.self)])
                let observer = scheduler.start { outer.concatMap { _ in inner } }
                #expect(observer.events == [.next(220, 1), .error(240, TestError())])
                #expect(inner.subscriptions == [Subscription(210, 240)])
            }
        }

        @Test func aThrowingSelectorFailsTheResult() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let outer = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
                let observer = scheduler.start {
                    outer.concatMap { n -> Observable<Int> in
                        guard n < 2 else { throw TestError(code: 2) }
                        return Observable.just(n)
                    }
                }
                #expect(observer.events == [.next(210, 1), .error(220, TestError(code: 2))])
                #expect(outer.subscriptions == [Subscription(200, 220)])
            }
        }

        @Test func disposalUnsubscribesTheOuterAndTheInner() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let inner = scheduler.createColdObservable([.next(10, 1), .next(200, 2)])
                let outer = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
                let observer = scheduler.start(disposed: 300) { outer.concatMap { _ in inner } }
                #expect(observer.events == [.next(220, 1)])
                #expect(inner.subscriptions == [Subscription(210, 300)])
                #expect(outer.subscriptions == [Subscription(200, 300)])
            }
        }

        @Test func concatenatesSynchronousInnerSequencesInOrder() {
            expectNoLeaks {
                var received: [Int] = []
                var completed = false
                _ = Observable.of(1, 2, 3).concatMap { n in Observable.of(n, n * 10) }
                    .subscribe(onNext: { received.append($0) }, onCompleted: { completed = true })
                #expect(received == [1, 10, 2, 20, 3, 30])
                #expect(completed)
            }
        }
    }
}
