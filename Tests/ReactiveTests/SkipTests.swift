import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct SkipTests {
        @Test func dropsTheFirstElements() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([
                    .next(210, 1), .next(220, 2), .next(230, 3), .completed(240),
                ])
                let observer = scheduler.start { source.skip(2) }
                #expect(observer.events == [.next(230, 3), .completed(240)])
            }
        }

        @Test func passesAnEarlyError() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError())])
                let observer = scheduler.start { source.skip(5) }
                #expect(observer.events == [.error(220, TestError())])
            }
        }
    }
}
