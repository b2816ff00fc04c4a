import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct SingleTests {
        @Test func createSendsTheFirstEventOnly() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let observer = scheduler.start {
                    Single<Int>.create { observer in
                        observer(.success(1))
                        observer(.success(2))
                        observer(.failure(TestError()))
                        return Disposables.create()
                    }
                }
                #expect(observer.events == [.next(200, 1), .completed(200)])
            }
        }

        @Test func subscribeReportsSuccessFailureAndDisposal() {
            expectNoLeaks {
                var log: [String] = []
                _ = Single.just(7).subscribe(
                    onSuccess: { log.append("success \($0)") }, onFailure: { _ in log.append("failure") },
                    onDisposed: { log.append("disposed") })
                _ = Single<Int>.error(TestError()).subscribe(
                    onSuccess: { log.append("success \($0)") }, onFailure: { _ in log.append("failure") },
                    onDisposed: { log.append("disposed") })
                #expect(log == ["success 7", "disposed", "failure", "disposed"])
            }
        }

        @Test func theEventClosureReceivesOneResult() {
            expectNoLeaks {
                var results: [String] = []
                _ = Single.just(1).subscribe { event in results.append("\(event)") }
                _ = Single<Int>.error(TestError(code: 3)).subscribe { event in
                    if case .failure(let error) = event { results.append("\(error)") }
                }
                #expect(results == ["success(1)", "TestError(code: 3)"])
            }
        }

        @Test func asSingleSendsTheElementAtCompletion() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .completed(250)])
                let observer = scheduler.start { source.asSingle() }
                #expect(observer.events == [.next(250, 1), .completed(250)])
                #expect(source.subscriptions == [Subscription(200, 250)])
            }
        }

        @Test func asSingleFailsOnAnEmptySequence() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.completed(250, Int.self)])
                let observer = scheduler.start { source.asSingle() }
                #expect(observer.events == [.error(250, RxError.noElements)])
            }
        }

        @Test func asSingleFailsAtASecondElement() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
                let observer = scheduler.start { source.asSingle() }
                #expect(observer.events == [.error(220, RxError.moreThanOneElement)])
                #expect(source.subscriptions == [Subscription(200, 220)])
            }
        }

        @Test func flatMapContinuesWithTheNextSingle() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createColdObservable([.next(10, 2), .completed(10)])
                let observer = scheduler.start {
                    first.asSingle().flatMap { value in
                        Single.just(value * 10).delay(.seconds(5), scheduler: scheduler)
                    }
                }
                #expect(observer.events == [.next(215, 20), .completed(215)])
            }
        }

        @Test func flatMapMaybeAndFlatMapCompletableKeepTheirTraits() {
            expectNoLeaks {
                let maybe = recordedEvents { Single.just(1).flatMapMaybe { _ in Maybe<Int>.empty() } }
                let completable = recordedEvents { Single.just(1).flatMapCompletable { _ in Completable.empty() } }
                #expect(maybe == [.completed(200)])
                #expect(completable == [.completed(200)])
            }
        }

        @Test func mapFilterAndCatchAndReturn() {
            expectNoLeaks {
                #expect(recordedEvents { Single.just(2).map { $0 + 1 } } == [.next(200, 3), .completed(200)])
                #expect(recordedEvents { Single.just(2).filter { $0 > 5 } } == [.completed(200)])
                #expect(
                    recordedEvents { Single<Int>.error(TestError()).catchAndReturn(9) } == [
                        .next(200, 9), .completed(200),
                    ])
            }
        }

        @Test func doRunsItsCallbacksAroundTheEvent() {
            expectNoLeaks {
                var log: [String] = []
                _ = Single.just(1)
                    .do(
                        onSuccess: { log.append("on \($0)") }, afterSuccess: { log.append("after \($0)") },
                        onSubscribe: { log.append("subscribe") }, onDispose: { log.append("dispose") }
                    )
                    .subscribe(onSuccess: { log.append("got \($0)") })
                #expect(log == ["subscribe", "on 1", "got 1", "after 1", "dispose"])
            }
        }

        @Test func zipWaitsForBoth() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createColdObservable([.next(10, 1), .completed(10)]).asSingle()
                let second = scheduler.createColdObservable([.next(30, 2), .completed(30)]).asSingle()
                let observer = scheduler.start { Single.zip(first, second) { $0 + $1 } }
                let tuple = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
                    Single<(Int, Int)>.zip(first, second).map { $0.0 * $0.1 }
                }
                let all = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
                    Single.zip([first, second])
                }
                #expect(observer.events == [.next(230, 3), .completed(230)])
                #expect(tuple.events == [.next(1230, 2), .completed(1230)])
                #expect(all.events == [.next(2230, [1, 2]), .completed(2230)])
            }
        }

        @Test func timeoutFailsASlowSingle() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let slow = scheduler.createColdObservable([.next(100, 1), .completed(100)])
                let observer = scheduler.start { slow.asSingle().timeout(.seconds(50), scheduler: scheduler) }
                #expect(observer.events == [.error(250, RxError.timeout)])
                #expect(slow.subscriptions == [Subscription(200, 250)])
            }
        }

        @Test func retryResubscribesAfterAFailure() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                var attempts = 0
                let observer = scheduler.start {
                    Single<Int>.deferred {
                        attempts += 1
                        return attempts < 3 ? .error(TestError()) : .just(attempts)
                    }.retry(5)
                }
                #expect(observer.events == [.next(200, 3), .completed(200)])
            }
        }
    }
}
