import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct IfEmptyTests {
        @Test func sendsTheDefaultWhenTheSourceCompletesEmpty() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.completed(250, Int.self)])
                let observer = scheduler.start { source.ifEmpty(default: 7) }
                #expect(observer.events == [.next(250, 7), .completed(250)])
            }
        }

        @Test func passesANonEmptySourceThrough() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .completed(250)])
                let other = scheduler.createColdObservable([.next(10, 9)])
                let observer = scheduler.start { source.ifEmpty(switchTo: other.asObservable()) }
                #expect(observer.events == [.next(210, 1), .completed(250)])
                #expect(other.subscriptions == [])
            }
        }

        @Test func switchesToTheOtherWhenEmpty() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.completed(250, Int.self)])
                let other = scheduler.createColdObservable([.next(10, 9), .completed(20)])
                let observer = scheduler.start { source.ifEmpty(switchTo: other.asObservable()) }
                #expect(observer.events == [.next(260, 9), .completed(270)])
                #expect(other.subscriptions == [Subscription(250, 270)])
            }
        }

        @Test func anErrorIsNotEmpty() {
            expectNoLeaks {
                let events = recordedEvents { Observable<Int>.error(TestError()).ifEmpty(default: 1) }
                #expect(events == [.error(200, TestError())])
            }
        }
    }
}
