import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct StartWithTests {
        @Test func sendsTheGivenElementsOnSubscription() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 3), .completed(220)])
                let observer = scheduler.start { source.startWith(1, 2) }
                #expect(observer.events == [.next(200, 1), .next(200, 2), .next(210, 3), .completed(220)])
            }
        }
    }
}
