import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct TakeWhileTests {
        @Test func exclusiveCompletesWithoutTheFailingElement() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 5), .next(240, 1)])
                let observer = scheduler.start { source.take(while: { $0 < 3 }, behavior: .exclusive) }
                #expect(observer.events == [.next(210, 1), .next(220, 2), .completed(230)])
                #expect(source.subscriptions == [Subscription(200, 230)])
            }
        }

        @Test func inclusiveSendsTheFailingElementThenCompletes() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(230, 5), .next(240, 1)])
                let observer = scheduler.start { source.take(while: { $0 < 3 }, behavior: .inclusive) }
                #expect(observer.events == [.next(210, 1), .next(230, 5), .completed(230)])
            }
        }

        @Test func takeUntilAPredicateIsInclusiveByDefault() {
            expectNoLeaks {
                let inclusive = recordedEvents { Observable.of(1, 2, 3, 4).take(until: { $0 == 3 }) }
                let exclusive = recordedEvents {
                    Observable.of(1, 2, 3, 4).take(until: { $0 == 3 }, behavior: .exclusive)
                }
                #expect(inclusive == [.next(200, 1), .next(200, 2), .next(200, 3), .completed(200)])
                #expect(exclusive == [.next(200, 1), .next(200, 2), .completed(200)])
            }
        }

        @Test func aThrowingPredicateFails() {
            expectNoLeaks {
                let events = recordedEvents {
                    Observable.of(1, 2).take(while: { (value: Int) throws -> Bool in
                        if value == 2 { throw TestError() }
                        return true
                    })
                }
                #expect(events == [.next(200, 1), .error(200, TestError())])
            }
        }
    }
}
