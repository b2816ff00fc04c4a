import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct ScanTests {
        @Test func sendsEachRunningTotal() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([
                    .next(210, 1), .next(220, 2), .next(230, 3), .completed(240),
                ])
                let observer = scheduler.start { source.scan(0, accumulator: +) }
                #expect(observer.events == [.next(210, 1), .next(220, 3), .next(230, 6), .completed(240)])
            }
        }

        @Test func accumulatesInPlace() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, "a"), .next(220, "b")])
                let observer = scheduler.start { source.scan(into: [String]()) { $0.append($1) } }
                #expect(observer.events == [.next(210, ["a"]), .next(220, ["a", "b"])])
            }
        }

        @Test func eachSubscriptionStartsFromTheSeed() {
            expectNoLeaks {
                let scanned = Observable.of(1, 2).scan(10, accumulator: +)
                var first: [Int] = []
                var second: [Int] = []
                _ = scanned.subscribe(onNext: { first.append($0) })
                _ = scanned.subscribe(onNext: { second.append($0) })
                #expect(first == [11, 13])
                #expect(second == [11, 13])
            }
        }
    }
}
