import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct SingleElementTests {
        @Test func sendsTheOneElementAsItArrives() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .completed(250)])
                let observer = scheduler.start { source.single() }
                #expect(observer.events == [.next(210, 1), .completed(250)])
            }
        }

        @Test func failsAtASecondElementOrOnNone() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
                let observer = scheduler.start { source.single() }
                #expect(observer.events == [.next(210, 1), .error(220, RxError.moreThanOneElement)])
                #expect(source.subscriptions == [Subscription(200, 220)])
                #expect(recordedEvents { Observable<Int>.empty().single() } == [.error(200, RxError.noElements)])
            }
        }

        @Test func thePredicateFormCountsOnlyMatches() {
            expectNoLeaks {
                let one = recordedEvents { Observable.of(1, 2, 3).single { $0 == 2 } }
                let two = recordedEvents { Observable.of(1, 2, 3).single { $0 > 1 } }
                let none = recordedEvents { Observable.of(1, 2, 3).single { $0 > 5 } }
                #expect(one == [.next(200, 2), .completed(200)])
                #expect(two == [.next(200, 2), .error(200, RxError.moreThanOneElement)])
                #expect(none == [.error(200, RxError.noElements)])
            }
        }
    }
}
