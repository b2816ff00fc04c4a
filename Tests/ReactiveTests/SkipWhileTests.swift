import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct SkipWhileTests {
        @Test func dropsWhileThePredicateHoldsThenSendsEverything() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([
                    .next(210, 0), .next(220, 0), .next(230, 4), .next(240, 0), .completed(250),
                ])
                let observer = scheduler.start { source.skip(while: { $0 == 0 }) }
                #expect(observer.events == [.next(230, 4), .next(240, 0), .completed(250)])
            }
        }

        @Test func aThrowingPredicateFails() {
            expectNoLeaks {
                let events = recordedEvents {
                    Observable.of(1, 2).skip(while: { (_: Int) throws -> Bool in throw TestError() })
                }
                #expect(events == [.error(200, TestError())])
            }
        }
    }
}
