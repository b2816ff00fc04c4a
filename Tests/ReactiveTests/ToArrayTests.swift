import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct ToArrayTests {
        @Test func sendsEveryElementAtCompletion() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
                let observer = scheduler.start { source.toArray() }
                #expect(observer.events == [.next(250, [1, 2]), .completed(250)])
            }
        }

        @Test func failsWithTheSource() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .error(250, TestError(), Int.self)])
                let observer = scheduler.start { source.toArray() }
                #expect(observer.events == [.error(250, TestError())])
            }
        }
    }
}
