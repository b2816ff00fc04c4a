import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct FlatMapFirstTests {
        @Test func ignoresElementsWhileAnInnerSequenceIsLive() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let inner = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
                let outer = scheduler.createHotObservable([
                    .next(210, 10), .next(215, 20), .next(235, 30), .next(250, 40), .completed(260),
                ])
                let observer = scheduler.start { outer.flatMapFirst { n in inner.map { $0 + n } } }
                #expect(
                    observer.events == [
                        .next(220, 11), .next(230, 12), .next(260, 41), .next(270, 42), .completed(280),
                    ])
                #expect(inner.subscriptions == [Subscription(210, 240), Subscription(250, 280)])
                #expect(outer.subscriptions == [Subscription(200, 260)])
            }
        }

        @Test func doesNotMapTheIgnoredElements() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                var mapped: [Int] = []
                let inner = scheduler.createColdObservable([.next(10, 0), .completed(50)])
                let outer = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(270, 3)])
                let observer = scheduler.start {
                    outer.flatMapFirst { n -> TestableObservable<Int> in
                        mapped.append(n)
                        return inner
                    }
                }
                #expect(mapped == [1, 3])
                #expect(observer.events == [.next(220, 0), .next(280, 0)])
            }
        }

        @Test func completesWhenTheOuterCompletesAfterTheInner() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let inner = scheduler.createColdObservable([.next(10, 1), .completed(20)])
                let outer = scheduler.createHotObservable([.next(210, 1), .completed(300)])
                let observer = scheduler.start { outer.flatMapFirst { _ in inner } }
                #expect(observer.events == [.next(220, 1), .completed(300)])
            }
        }

        @Test func completesWhenTheInnerCompletesAfterTheOuter() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let inner = scheduler.createColdObservable([.next(10, 1), .completed(100)])
                let outer = scheduler.createHotObservable([.next(210, 1), .completed(220)])
                let observer = scheduler.start { outer.flatMapFirst { _ in inner } }
                #expect(observer.events == [.next(220, 1), .completed(310)])
                #expect(outer.subscriptions == [Subscription(200, 220)])
                #expect(inner.subscriptions == [Subscription(210, 310)])
            }
        }

        @Test func innerErrorFailsTheResult() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let inner = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(), Int.self)])
                let outer = scheduler.createHotObservable([.next(210, 1), .next(300, 2)])
                let observer = scheduler.start { outer.flatMapFirst { _ in inner } }
                #expect(observer.events == [.next(220, 1), .error(230, TestError())])
                #expect(outer.subscriptions == [Subscription(200, 230)])
                #expect(inner.subscriptions == [Subscription(210, 230)])
            }
        }

        @Test func outerErrorFailsTheResultAndDisposesTheInner() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let inner = scheduler.createColdObservable([.next(10, 1), .next(50, 2)])
                let outer = scheduler.createHotObservable([.next(210, 1), .error(240, TestError(), Int.self)])
                let observer = scheduler.start { outer.flatMapFirst { _ in inner } }
                #expect(observer.events == [.next(220, 1), .error(240, TestError())])
                #expect(inner.subscriptions == [Subscription(210, 240)])
            }
        }

        @Test func aThrowingSelectorFailsTheResult() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let outer = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
                let observer = scheduler.start {
                    outer.flatMapFirst { n -> Observable<Int> in
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
                let observer = scheduler.start(disposed: 300) { outer.flatMapFirst { _ in inner } }
                #expect(observer.events == [.next(220, 1)])
                #expect(inner.subscriptions == [Subscription(210, 300)])
                #expect(outer.subscriptions == [Subscription(200, 300)])
            }
        }
    }
}
