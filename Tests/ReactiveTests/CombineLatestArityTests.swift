import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct CombineLatestArityTests {
        /// Hot sources where source `i` (from 0) sends `i + 1` at `210 + 10 i`, `10 (i + 1)` at `300 + 10 i`, and
        /// completes at `400 + 10 i`.
        static func sources(_ scheduler: TestScheduler, count: Int) -> [TestableObservable<Int>] {
            (0..<count).map { index in
                scheduler.createHotObservable([
                    .next(210 + 10 * index, index + 1), .next(300 + 10 * index, 10 * (index + 1)),
                    .completed(400 + 10 * index),
                ])
            }
        }

        /// The events every arity should record on `sources(_:count:)`, summing the latest values.
        static func expectedSums(count: Int) -> [Recorded<Event<Int>>] {
            var latest = Array(1...count)
            var events: [Recorded<Event<Int>>] = [.next(210 + 10 * (count - 1), latest.reduce(0, +))]
            for index in 0..<count {
                latest[index] = 10 * (index + 1)
                events.append(.next(300 + 10 * index, latest.reduce(0, +)))
            }
            events.append(.completed(400 + 10 * (count - 1)))
            return events
        }

        @Test func combinesFourWithASelectorAndAsATuple() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let s = Self.sources(scheduler, count: 4)
                let selected = scheduler.start {
                    Observable.combineLatest(s[0], s[1], s[2], s[3]) { $0 + $1 + $2 + $3 }
                }
                #expect(selected.events == Self.expectedSums(count: 4))
                let tupled = TestScheduler(initialClock: 0)
                let t = Self.sources(tupled, count: 4)
                let observer = tupled.start {
                    Observable<(Int, Int, Int, Int)>.combineLatest(t[0], t[1], t[2], t[3]).map {
                        [$0.0, $0.1, $0.2, $0.3]
                    }
                }
                #expect(observer.events.first == .next(240, [1, 2, 3, 4]))
                #expect(observer.events.last == .completed(430))
            }
        }

        @Test func combinesFiveWithASelectorAndAsATuple() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let s = Self.sources(scheduler, count: 5)
                let selected = scheduler.start {
                    Observable.combineLatest(s[0], s[1], s[2], s[3], s[4]) { $0 + $1 + $2 + $3 + $4 }
                }
                #expect(selected.events == Self.expectedSums(count: 5))
                for source in s { #expect(source.subscriptions.count == 1) }
                let tupled = TestScheduler(initialClock: 0)
                let t = Self.sources(tupled, count: 5)
                let observer = tupled.start {
                    Observable<(Int, Int, Int, Int, Int)>.combineLatest(t[0], t[1], t[2], t[3], t[4])
                        .map { [$0.0, $0.1, $0.2, $0.3, $0.4] }
                }
                #expect(observer.events.first == .next(250, [1, 2, 3, 4, 5]))
                #expect(observer.events.last == .completed(440))
            }
        }

        @Test func combinesSixWithASelectorAndAsATuple() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let s = Self.sources(scheduler, count: 6)
                let selected = scheduler.start {
                    Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]) { $0 + $1 + $2 + $3 + $4 + $5 }
                }
                #expect(selected.events == Self.expectedSums(count: 6))
                let tupled = TestScheduler(initialClock: 0)
                let t = Self.sources(tupled, count: 6)
                let observer = tupled.start {
                    Observable<(Int, Int, Int, Int, Int, Int)>.combineLatest(t[0], t[1], t[2], t[3], t[4], t[5])
                        .map { [$0.0, $0.1, $0.2, $0.3, $0.4, $0.5] }
                }
                #expect(observer.events.first == .next(260, [1, 2, 3, 4, 5, 6]))
                #expect(observer.events.last == .completed(450))
            }
        }

        @Test func combinesSevenWithASelectorAndAsATuple() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let s = Self.sources(scheduler, count: 7)
                let selected = scheduler.start {
                    Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) {
                        $0 + $1 + $2 + $3 + $4 + $5 + $6
                    }
                }
                #expect(selected.events == Self.expectedSums(count: 7))
                let tupled = TestScheduler(initialClock: 0)
                let t = Self.sources(tupled, count: 7)
                let observer = tupled.start {
                    Observable<(Int, Int, Int, Int, Int, Int, Int)>.combineLatest(
                        t[0], t[1], t[2], t[3], t[4], t[5], t[6]
                    ).map { [$0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6] }
                }
                #expect(observer.events.first == .next(270, [1, 2, 3, 4, 5, 6, 7]))
                #expect(observer.events.last == .completed(460))
            }
        }

        @Test func combinesEightWithASelectorAndAsATuple() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let s = Self.sources(scheduler, count: 8)
                let selected = scheduler.start {
                    Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) {
                        $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7
                    }
                }
                #expect(selected.events == Self.expectedSums(count: 8))
                let tupled = TestScheduler(initialClock: 0)
                let t = Self.sources(tupled, count: 8)
                let observer = tupled.start {
                    Observable<(Int, Int, Int, Int, Int, Int, Int, Int)>.combineLatest(
                        t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7]
                    ).map { [$0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6, $0.7] }
                }
                #expect(observer.events.first == .next(280, [1, 2, 3, 4, 5, 6, 7, 8]))
                #expect(observer.events.last == .completed(470))
            }
        }

        @Test func combinesSourcesOfDifferentTypes() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let int = scheduler.createHotObservable([.next(210, 1)])
                let string = scheduler.createHotObservable([.next(220, "b")])
                let bool = scheduler.createHotObservable([.next(230, true)])
                let double = scheduler.createHotObservable([.next(240, 2.5)])
                let character = scheduler.createHotObservable([.next(250, Character("e")), .next(260, "f")])
                let observer = scheduler.start {
                    Observable.combineLatest(int, string, bool, double, character) { "\($0)\($1)\($2)\($3)\($4)" }
                }
                #expect(observer.events == [.next(250, "1btrue2.5e"), .next(260, "1btrue2.5f")])
            }
        }

        @Test func failsOnTheFirstErrorAndDisposesEverySource() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let s = Self.sources(scheduler, count: 5)
                let failing = scheduler.createHotObservable([.next(210, 0), .error(305, TestError())])
                let observer = scheduler.start {
                    Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], failing) { $0 + $1 + $2 + $3 + $4 + $5 }
                }
                #expect(observer.events == [.next(250, 15), .next(300, 24), .error(305, TestError())])
                for source in s { #expect(source.subscriptions == [Subscription(200, 305)]) }
                #expect(failing.subscriptions == [Subscription(200, 305)])
            }
        }

        @Test func aThrowingSelectorFails() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let s = Self.sources(scheduler, count: 8)
                let observer = scheduler.start {
                    Observable<Int>.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) {
                        _, _, _, _, _, _, _, last in
                        if last == 80 { throw TestError() }
                        return last
                    }
                }
                #expect(
                    observer.events == [
                        .next(280, 8), .next(300, 8), .next(310, 8), .next(320, 8),
                        .next(330, 8), .next(340, 8), .next(350, 8), .next(360, 8), .error(370, TestError()),
                    ])
                #expect(s[0].subscriptions == [Subscription(200, 370)])
            }
        }

        @Test func disposingStopsEverySource() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let s = Self.sources(scheduler, count: 7)
                let observer = scheduler.start(disposed: 305) {
                    Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) {
                        $0 + $1 + $2 + $3 + $4 + $5 + $6
                    }
                }
                #expect(observer.events == [.next(270, 28), .next(300, 37)])
                for source in s { #expect(source.subscriptions == [Subscription(200, 305)]) }
            }
        }
    }
}
