import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct GroupByTests {
        @Test func sendsAGroupPerKeyWithItsElements() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([
                    .next(210, "apple"), .next(220, "avocado"), .next(230, "banana"), .next(240, "apricot"),
                    .completed(300),
                ])
                let observer = scheduler.start {
                    source.groupBy { $0.first! }.flatMap { group in group.map { "\(group.key):\($0)" } }
                }
                #expect(
                    observer.events == [
                        .next(210, "a:apple"), .next(220, "a:avocado"), .next(230, "b:banana"),
                        .next(240, "a:apricot"), .completed(300),
                    ])
            }
        }

        @Test func theGroupsEndWithTheSource() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([
                    .next(210, 1), .next(220, 2), .error(250, TestError(), Int.self),
                ])
                let groups = scheduler.createObserver(Int.self)
                let odd = scheduler.createObserver(Int.self)
                var subscriptions: [any Disposable] = []
                scheduler.scheduleAt(200) {
                    subscriptions.append(
                        source.groupBy { $0 % 2 }.subscribe(
                            onNext: { group in
                                groups.onNext(group.key)
                                if group.key == 1 { subscriptions.append(group.subscribe(odd)) }
                            }, onError: { _ in }))
                }
                scheduler.start()
                #expect(groups.events == [.next(210, 1), .next(220, 0)])
                #expect(odd.events == [.next(210, 1), .error(250, TestError())])
                for subscription in subscriptions { subscription.dispose() }
            }
        }

        @Test func aThrowingKeySelectorFails() {
            expectNoLeaks {
                let events = recordedEvents {
                    Observable.of(1).groupBy { (_: Int) throws -> Int in throw TestError() }.map(\.key)
                }
                #expect(events == [.error(200, TestError())])
            }
        }
    }
}
