import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct MaterializeTests {
        @Test func sendsEveryEventAsAnElement() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .error(250, TestError(), Int.self)])
                let observer = scheduler.start { source.materialize() }
                #expect(
                    observer.events == [
                        .next(210, Event.next(1)), .next(250, Event.error(TestError())), .completed(250),
                    ])
            }
        }

        @Test func dematerializeTurnsThemBack() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([
                    .next(210, Event.next(1)), .next(220, Event<Int>.completed), .next(230, Event.next(2)),
                ])
                let observer = scheduler.start { source.dematerialize() }
                #expect(observer.events == [.next(210, 1), .completed(220)])
                #expect(source.subscriptions == [Subscription(200, 220)])
                let roundTrip = recordedEvents { Observable.of(1, 2).materialize().dematerialize() }
                #expect(roundTrip == [.next(200, 1), .next(200, 2), .completed(200)])
            }
        }
    }
}
