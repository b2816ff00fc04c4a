import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct CompactMapTests {
        @Test func dropsNilResults() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([
                    .next(210, "1"), .next(220, "x"), .next(230, "3"), .completed(240),
                ])
                let observer = scheduler.start { source.compactMap { Int($0) } }
                #expect(observer.events == [.next(210, 1), .next(230, 3), .completed(240)])
            }
        }
    }
}
