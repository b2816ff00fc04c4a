import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct GenerateTests {
        @Test func generatesOnASchedulerUntilTheConditionFails() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let observer = scheduler.start {
                    Observable.generate(initialState: 1, condition: { $0 < 10 }, scheduler: scheduler) { $0 * 3 }
                }
                #expect(observer.events == [.next(201, 1), .next(202, 3), .next(203, 9), .completed(204)])
            }
        }

        @Test func generatesSynchronouslyWithoutAScheduler() {
            expectNoLeaks {
                let events = recordedEvents { Observable.generate(initialState: 0, condition: { $0 < 3 }) { $0 + 1 } }
                #expect(events == [.next(200, 0), .next(200, 1), .next(200, 2), .completed(200)])
            }
        }

        @Test func aThrowingIterateFails() {
            expectNoLeaks {
                let events = recordedEvents {
                    Observable.generate(initialState: 0, condition: { _ in true }) { (_: Int) throws -> Int in
                        throw TestError()
                    }
                }
                #expect(events == [.next(200, 0), .error(200, TestError())])
            }
        }

        @Test func rangeAndRepeatElement() {
            expectNoLeaks {
                let range = recordedEvents { Observable<Int>.range(start: 5, count: 3) }
                let edge = recordedEvents { Observable<Int8>.range(start: 126, count: 2) }
                let repeated = recordedEvents { Observable.repeatElement("a").take(2) }
                #expect(range == [.next(200, 5), .next(200, 6), .next(200, 7), .completed(200)])
                #expect(edge == [.next(200, 126), .next(200, 127), .completed(200)])
                #expect(repeated == [.next(200, "a"), .next(200, "a"), .completed(200)])
            }
        }

        @Test func disposalStopsAScheduledGenerator() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let observer = scheduler.start(disposed: 203) {
                    Observable.repeatElement(1, scheduler: scheduler)
                }
                #expect(observer.events == [.next(201, 1), .next(202, 1)])
            }
        }
    }
}
