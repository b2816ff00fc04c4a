import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct MaybeTests {
        @Test func createSendsTheFirstEventOnly() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let success = scheduler.start {
                    Maybe<Int>.create { observer in
                        observer(.success(1))
                        observer(.completed)
                        return Disposables.create()
                    }
                }
                let empty = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
                    Maybe<Int>.create { observer in
                        observer(.completed)
                        observer(.success(1))
                        return Disposables.create()
                    }
                }
                #expect(success.events == [.next(200, 1), .completed(200)])
                #expect(empty.events == [.completed(1200)])
            }
        }

        @Test func subscribeReportsEachOutcome() {
            expectNoLeaks {
                var log: [String] = []
                for maybe in [Maybe.just(1), Maybe.empty(), Maybe.error(TestError())] {
                    _ = maybe.subscribe(
                        onSuccess: { log.append("success \($0)") }, onError: { _ in log.append("error") },
                        onCompleted: { log.append("completed") }, onDisposed: { log.append("disposed") })
                }
                #expect(log == ["success 1", "disposed", "completed", "disposed", "error", "disposed"])
            }
        }

        @Test func theEventClosureReceivesOneEvent() {
            expectNoLeaks {
                var events: [String] = []
                _ = Maybe.just(1).subscribe { events.append("\($0)") }
                _ = Maybe<Int>.empty().subscribe { events.append("\($0)") }
                #expect(events == ["success(1)", "completed"])
            }
        }

        @Test func asMaybeSendsTheElementAtCompletionOrNothing() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let one = scheduler.createHotObservable([.next(210, 1), .completed(250)])
                let none = scheduler.createHotObservable([.completed(260, Int.self)])
                let observer = scheduler.createObserver(Int.self)
                let empty = scheduler.createObserver(Int.self)
                scheduler.scheduleAt(200) {
                    _ = one.asMaybe().asObservable().subscribe(observer)
                    _ = none.asMaybe().asObservable().subscribe(empty)
                }
                scheduler.start()
                #expect(observer.events == [.next(250, 1), .completed(250)])
                #expect(empty.events == [.completed(260)])
            }
        }

        @Test func asMaybeFailsAtASecondElement() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let two = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
                let observer = scheduler.start { two.asMaybe() }
                #expect(observer.events == [.error(220, RxError.moreThanOneElement)])
                #expect(two.subscriptions == [Subscription(200, 220)])
            }
        }

        @Test func ifEmptyTurnsAnEmptyMaybeIntoASingle() {
            expectNoLeaks {
                let byDefault = recordedEvents { Maybe<Int>.empty().ifEmpty(default: 5) }
                let switched = recordedEvents { Maybe<Int>.empty().ifEmpty(switchTo: Single.just(6)) }
                let kept = recordedEvents { Maybe.just(1).ifEmpty(switchTo: Maybe.just(7)) }
                #expect(byDefault == [.next(200, 5), .completed(200)])
                #expect(switched == [.next(200, 6), .completed(200)])
                #expect(kept == [.next(200, 1), .completed(200)])
            }
        }

        @Test func mapFlatMapAndAsSingle() {
            expectNoLeaks {
                #expect(recordedEvents { Maybe.just(2).map { $0 * 3 } } == [.next(200, 6), .completed(200)])
                #expect(recordedEvents { Maybe.just(2).flatMap { _ in Maybe<Int>.empty() } } == [.completed(200)])
                #expect(recordedEvents { Maybe<Int>.empty().asSingle() } == [.error(200, RxError.noElements)])
            }
        }

        @Test func doRunsItsCallbacks() {
            expectNoLeaks {
                var log: [String] = []
                _ = Maybe<Int>.empty()
                    .do(onCompleted: { log.append("completed") }, afterCompleted: { log.append("after") })
                    .subscribe(onCompleted: { log.append("got") })
                #expect(log == ["completed", "got", "after"])
            }
        }

        @Test func zipIsEmptyWhenEitherIs() {
            expectNoLeaks {
                let both = recordedEvents { Maybe.zip(Maybe.just(1), Maybe.just(2)) { $0 + $1 } }
                let one = recordedEvents { Maybe.zip(Maybe.just(1), Maybe<Int>.empty()) { $0 + $1 } }
                #expect(both == [.next(200, 3), .completed(200)])
                #expect(one == [.completed(200)])
            }
        }
    }
}
