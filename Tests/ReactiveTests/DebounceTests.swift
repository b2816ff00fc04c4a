import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct DebounceTests {
        @Test func sendsAfterQuietPeriodAndFlushesOnCompletion() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([
                    .next(210, 1), .next(215, 2), .next(240, 3), .next(300, 4), .completed(305),
                ])
                let observer = scheduler.start { source.debounce(.seconds(20), scheduler: scheduler) }
                #expect(observer.events == [.next(235, 2), .next(260, 3), .next(305, 4), .completed(305)])
            }
        }

        @Test func errorsPassAtOnceAndDropThePendingElement() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .error(215, TestError())])
                let observer = scheduler.start { source.debounce(.seconds(20), scheduler: scheduler) }
                #expect(observer.events == [.error(215, TestError())])
            }
        }
    }
}
