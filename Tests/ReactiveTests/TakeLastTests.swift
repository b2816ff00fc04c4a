import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct TakeLastTests {
        @Test func sendsTheLastElementsAtCompletion() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([
                    .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250),
                ])
                let observer = scheduler.start { source.takeLast(2) }
                #expect(observer.events == [.next(250, 3), .next(250, 4), .completed(250)])
            }
        }

        @Test func sendsEverythingWhenThereAreFewerAndNothingForZero() {
            expectNoLeaks {
                #expect(
                    recordedEvents { Observable.of(1, 2).takeLast(5) } == [
                        .next(200, 1), .next(200, 2), .completed(200),
                    ])
                #expect(recordedEvents { Observable.of(1, 2).takeLast(0) } == [.completed(200)])
                let many = recordedEvents { Observable.from(1...100).takeLast(3) }
                #expect(many == [.next(200, 98), .next(200, 99), .next(200, 100), .completed(200)])
            }
        }

        @Test func anErrorDropsTheBuffer() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .error(250, TestError(), Int.self)])
                let observer = scheduler.start { source.takeLast(2) }
                #expect(observer.events == [.error(250, TestError())])
            }
        }
    }
}
