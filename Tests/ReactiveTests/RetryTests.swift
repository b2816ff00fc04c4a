import Foundation
import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct RetryTests {
        @Test func resubscribesAfterEachErrorUntilAnAttemptCompletes() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                var attempts = 0
                let failing = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(), Int.self)])
                let succeeding = scheduler.createColdObservable([.next(10, 2), .completed(20)])
                let observer = scheduler.start {
                    Observable.deferred {
                        attempts += 1
                        return attempts < 3 ? failing.asObservable() : succeeding.asObservable()
                    }
                    .retry()
                }
                #expect(observer.events == [.next(210, 1), .next(230, 1), .next(250, 2), .completed(260)])
                #expect(failing.subscriptions == [Subscription(200, 220), Subscription(220, 240)])
                #expect(succeeding.subscriptions == [Subscription(240, 260)])
            }
        }

        @Test func retryWithoutALimitNeverFails() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createColdObservable([.next(10, 1), .error(100, TestError(), Int.self)])
                let observer = scheduler.start { source.retry() }
                #expect(observer.events == (0..<8).map { .next(210 + $0 * 100, 1) })
                #expect(
                    source.subscriptions == [
                        Subscription(200, 300), Subscription(300, 400), Subscription(400, 500),
                        Subscription(500, 600), Subscription(600, 700), Subscription(700, 800),
                        Subscription(800, 900), Subscription(900, 1000),
                    ])
            }
        }

        @Test func completesWithTheSourceWithoutResubscribing() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createColdObservable([.next(10, 1), .completed(20)])
                let observer = scheduler.start { source.retry(3) }
                #expect(observer.events == [.next(210, 1), .completed(220)])
                #expect(source.subscriptions == [Subscription(200, 220)])
            }
        }

        @Test func sendsTheLastErrorAfterTheMaximumAttempts() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(), Int.self)])
                let observer = scheduler.start { source.retry(3) }
                #expect(
                    observer.events == [.next(210, 1), .next(230, 1), .next(250, 1), .error(260, TestError())])
                #expect(
                    source.subscriptions == [Subscription(200, 220), Subscription(220, 240), Subscription(240, 260)])
            }
        }

        @Test func oneAttemptIsNoRetry() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(), Int.self)])
                let observer = scheduler.start { source.retry(1) }
                #expect(observer.events == [.next(210, 1), .error(220, TestError())])
                #expect(source.subscriptions == [Subscription(200, 220)])
            }
        }

        @Test func zeroAttemptsCompleteWithoutSubscribing() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createColdObservable([.next(10, 1)])
                let observer = scheduler.start { source.retry(0) }
                #expect(observer.events == [.completed(200)])
                #expect(source.subscriptions.isEmpty)
            }
        }

        /// The mistakes a screen reported, appended and read on its thread (the scheduler orders the two).
        final class Reported: @unchecked Sendable { var all: [String] = [] }

        @Test func aNegativeCountIsZeroAndSaysSo() {
            let screen = ScreenScheduler(label: "retry-mistakes")
            let reported = Reported()
            screen.onProgrammerError { error in reported.all.append("\(error)") }
            let events = screen.sync { () -> [String] in
                var events: [String] = []
                var subscriptions = 0
                let source = Observable<Int>.create { observer in
                    subscriptions += 1
                    observer.onError(TestError())
                    return Disposables.create()
                }
                _ = source.retry(-2).subscribe(
                    onNext: { events.append("next \($0)") }, onError: { _ in events.append("error") },
                    onCompleted: { events.append("completed") })
                return events + ["subscriptions \(subscriptions)"]
            }
            #expect(events == ["completed", "subscriptions 0"])
            let mistakes = screen.sync { reported.all }
            #expect(mistakes.count == 1)
            #expect(mistakes.first?.contains("retry(_:) was given -2, a negative count; it uses 0.") == true)
        }

        @Test func disposalStopsTheCurrentAttempt() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createColdObservable([.next(10, 1), .error(60, TestError(), Int.self)])
                let observer = scheduler.start(disposed: 300) { source.retry() }
                #expect(observer.events == [.next(210, 1), .next(270, 1)])
                #expect(source.subscriptions == [Subscription(200, 260), Subscription(260, 300)])
            }
        }

        @Test func retriesASynchronouslyFailingSourceWithoutDeepeningTheStack() {
            expectNoLeaks {
                var attempts = 0
                var received: [Int] = []
                var failure: (any Error)?
                let source = Observable<Int>.create { observer in
                    attempts += 1
                    observer.onNext(attempts)
                    observer.onError(TestError())
                    return Disposables.create()
                }
                _ = source.retry(10_000).subscribe(onNext: { received.append($0) }, onError: { failure = $0 })
                #expect(attempts == 10_000)
                #expect(received.count == 10_000)
                #expect(received.last == 10_000)
                #expect(failure is TestError)
            }
        }
    }
}
