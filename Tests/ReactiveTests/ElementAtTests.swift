import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct ElementAtTests {
        @Test func sendsTheElementAtTheIndexThenCompletes() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
                let observer = scheduler.start { source.element(at: 1) }
                #expect(observer.events == [.next(220, 2), .completed(220)])
                #expect(source.subscriptions == [Subscription(200, 220)])
            }
        }

        @Test func failsWhenTheSequenceIsTooShort() {
            expectNoLeaks {
                let events = recordedEvents { Observable.of(1, 2).element(at: 2) }
                #expect(events == [.error(200, RxError.argumentOutOfRange)])
            }
        }
    }
}
