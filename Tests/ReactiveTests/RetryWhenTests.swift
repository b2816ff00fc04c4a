import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct RetryWhenTests {
        @Test func resubscribesWhenTheTriggerSends() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(), Int.self)])
                let observer = scheduler.start(disposed: 290) {
                    source.retry { (errors: Observable<TestError>) in errors.delay(.seconds(30), scheduler: scheduler) }
                }
                #expect(observer.events == [.next(210, 1), .next(260, 1)])
                #expect(source.subscriptions == [Subscription(200, 220), Subscription(250, 270)])
            }
        }

        @Test func theTriggersCompletionCompletesAndItsErrorFails() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(), Int.self)])
                let completed = scheduler.start {
                    source.retry { (errors: Observable<any Error>) in errors.take(2) }
                }
                #expect(completed.events == [.next(210, 1), .next(230, 1), .completed(240)])
                let failing = TestScheduler(initialClock: 0)
                let failingSource = failing.createColdObservable([.error(20, TestError(), Int.self)])
                let failed = failing.start {
                    failingSource.retry { (errors: Observable<TestError>) in
                        errors.map { _ -> Int in throw TestError(code: 9) }
                    }
                }
                #expect(failed.events == [.error(220, TestError(code: 9))])
            }
        }

        @Test func anErrorOfAnotherTypeFailsAtOnce() {
            expectNoLeaks {
                struct OtherError: Error {}
                let events = recordedEvents {
                    Observable<Int>.error(OtherError()).retry { (errors: Observable<TestError>) in errors }
                }
                #expect(events.count == 1)
                #expect(events.first?.value.error is OtherError)
            }
        }
    }
}
