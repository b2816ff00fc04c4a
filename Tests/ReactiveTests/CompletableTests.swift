import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct CompletableTests {
        @Test func createSendsTheFirstEventOnly() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let observer = scheduler.start {
                    Completable.create { observer in
                        observer(.completed)
                        observer(.error(TestError()))
                        return Disposables.create()
                    }
                }
                #expect(observer.events == [.completed(200)])
            }
        }

        @Test func subscribeReportsCompletionFailureAndDisposal() {
            expectNoLeaks {
                var log: [String] = []
                for completable in [Completable.empty(), Completable.error(TestError())] {
                    _ = completable.subscribe(
                        onCompleted: { log.append("completed") }, onError: { _ in log.append("error") },
                        onDisposed: { log.append("disposed") })
                }
                var events: [String] = []
                _ = Completable.empty().subscribe { events.append("\($0)") }
                #expect(log == ["completed", "disposed", "error", "disposed"])
                #expect(events == ["completed"])
            }
        }

        @Test func asCompletableIgnoresElements() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
                let observer = scheduler.start { source.asCompletable() }
                #expect(observer.events == [.completed(250)])
                let failing = TestScheduler(initialClock: 0)
                let failingSource = failing.createHotObservable([.next(210, 1), .error(230, TestError(), Int.self)])
                #expect(failing.start { failingSource.asCompletable() }.events == [.error(230, TestError())])
                #expect(Single.just(1).asCompletable().toBlocking().materialize().isCompleted)
            }
        }

        @Test func andThenRunsTheNextTraitAfterCompletion() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createColdObservable([.completed(20, Never.self)])
                let second = scheduler.createColdObservable([.next(30, 5), .completed(30)])
                let single = scheduler.start { first.asCompletable().andThen(second.asSingle()) }
                #expect(single.events == [.next(250, 5), .completed(250)])
                #expect(first.subscriptions == [Subscription(200, 220)])
                #expect(second.subscriptions == [Subscription(220, 250)])
            }
        }

        @Test func andThenSkipsTheNextAfterAnError() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let second = scheduler.createColdObservable([.next(30, 5), .completed(30)])
                let observable = scheduler.start {
                    Completable.error(TestError()).andThen(second.asObservable())
                }
                #expect(observable.events == [.error(200, TestError())])
                #expect(second.subscriptions == [])
                #expect(
                    recordedEvents { Completable.empty().andThen(Maybe.just(3)) } == [.next(200, 3), .completed(200)])
                #expect(recordedEvents { Completable.empty().andThen(Completable.empty()) } == [.completed(200)])
            }
        }

        @Test func zipAndConcatCompleteAfterAll() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let early = scheduler.createColdObservable([.completed(10, Never.self)])
                let late = scheduler.createColdObservable([.completed(40, Never.self)])
                let zipped = scheduler.start { Completable.zip(early.asCompletable(), late.asCompletable()) }
                let concatenated = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
                    Completable.concat(early.asCompletable(), late.asCompletable())
                }
                #expect(zipped.events == [.completed(240)])
                #expect(concatenated.events == [.completed(1250)])
            }
        }

        @Test func doRunsItsCallbacks() {
            expectNoLeaks {
                var log: [String] = []
                _ = Completable.error(TestError())
                    .do(onError: { _ in log.append("error") }, afterError: { _ in log.append("after") })
                    .subscribe(onError: { _ in log.append("got") })
                #expect(log == ["error", "got", "after"])
            }
        }
    }
}

extension MaterializedSequenceResult {
    var isCompleted: Bool {
        if case .completed = self { return true }
        return false
    }
}
