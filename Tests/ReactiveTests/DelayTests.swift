import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct DelayTests {
        @Test func shiftsElementsAndCompletion() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
                let observer = scheduler.start { source.delay(.seconds(50), scheduler: scheduler) }
                #expect(observer.events == [.next(260, 1), .next(270, 2), .completed(280)])
            }
        }

        @Test func passesErrorsAtOnce() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError())])
                let observer = scheduler.start { source.delay(.seconds(50), scheduler: scheduler) }
                #expect(observer.events == [.error(220, TestError())])
            }
        }

        @Test func disposalCancelsPendingElements() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(240, 2)])
                let observer = scheduler.start(disposed: 270) { source.delay(.seconds(50), scheduler: scheduler) }
                #expect(observer.events == [.next(260, 1)])
            }
        }
    }
}
