import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct CatchTests {
        @Test func continuesWithTheHandlersSequence() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError())])
                let fallback = scheduler.createColdObservable([.next(10, 100), .completed(20)])
                let observer = scheduler.start { source.catch { _ in fallback.asObservable() } }
                #expect(observer.events == [.next(210, 1), .next(230, 100), .completed(240)])
                #expect(source.subscriptions == [Subscription(200, 220)])
            }
        }

        @Test func catchAndReturnSendsTheElementAndCompletes() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError())])
                let observer = scheduler.start { source.catchAndReturn(-1) }
                #expect(observer.events == [.next(210, 1), .next(220, -1), .completed(220)])
            }
        }

        @Test func aThrowingHandlerFails() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.error(220, TestError(code: 1), Int.self)])
                let observer = scheduler.start {
                    source.catch { _ -> Observable<Int> in throw TestError(code: 2) }
                }
                #expect(observer.events == [.error(220, TestError(code: 2))])
            }
        }
    }
}
