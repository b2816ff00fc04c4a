import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct ReduceTests {
        @Test func sendsTheFoldAtCompletion() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
                let observer = scheduler.start { source.reduce(10, accumulator: +) }
                #expect(observer.events == [.next(250, 13), .completed(250)])
            }
        }

        @Test func mapsTheResultAndFoldsInPlace() {
            expectNoLeaks {
                let mapped = recordedEvents { Observable.of(1, 2, 3).reduce(0, accumulator: +) { "\($0)" } }
                let inPlace = recordedEvents { Observable.of(1, 2).reduce(into: [Int]()) { $0.append($1) } }
                let empty = recordedEvents { Observable<Int>.empty().reduce(7, accumulator: +) }
                #expect(mapped == [.next(200, "6"), .completed(200)])
                #expect(inPlace == [.next(200, [1, 2]), .completed(200)])
                #expect(empty == [.next(200, 7), .completed(200)])
            }
        }

        @Test func failsWithTheSourceOrTheAccumulator() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
                let observer = scheduler.start {
                    source.reduce(0) { (sum: Int, value: Int) throws -> Int in
                        if value == 2 { throw TestError() }
                        return sum + value
                    }
                }
                #expect(observer.events == [.error(220, TestError())])
                #expect(source.subscriptions == [Subscription(200, 220)])
                let failed = recordedEvents { Observable<Int>.error(TestError(code: 2)).reduce(0, accumulator: +) }
                #expect(failed == [.error(200, TestError(code: 2))])
            }
        }
    }
}
