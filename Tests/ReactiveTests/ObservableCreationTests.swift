import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct ObservableCreationTests {
        @Test func justSendsOneElementThenCompletes() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let observer = scheduler.start { Observable.just(42) }
                #expect(observer.events == [.next(200, 42), .completed(200)])
            }
        }

        @Test func ofAndFromSendEveryElement() {
            expectNoLeaks {
                #expect(
                    TestScheduler(initialClock: 0).start { Observable.of(1, 2) }.events
                        == [.next(200, 1), .next(200, 2), .completed(200)])
                #expect(
                    TestScheduler(initialClock: 0).start { Observable.from(["a"]) }.events
                        == [.next(200, "a"), .completed(200)])
            }
        }

        @Test func emptyNeverAndError() {
            expectNoLeaks {
                #expect(TestScheduler(initialClock: 0).start { Observable<Int>.empty() }.events == [.completed(200)])
                #expect(TestScheduler(initialClock: 0).start { Observable<Int>.never() }.events.isEmpty)
                #expect(
                    TestScheduler(initialClock: 0).start { Observable<Int>.error(TestError()) }.events
                        == [.error(200, TestError())])
            }
        }

        @Test func deferredCallsTheFactoryPerSubscription() {
            expectNoLeaks {
                var calls = 0
                let deferred = Observable.deferred { () -> Observable<Int> in
                    calls += 1
                    return .just(calls)
                }
                var received: [Int] = []
                _ = deferred.subscribe(onNext: { received.append($0) })
                _ = deferred.subscribe(onNext: { received.append($0) })
                #expect(received == [1, 2])
            }
        }

        @Test func deferredFailsWhenTheFactoryThrows() {
            expectNoLeaks {
                var error: (any Error)?
                _ = Observable<Int>.deferred { throw TestError() }.subscribe(onError: { error = $0 })
                #expect(error as? TestError == TestError())
            }
        }

        @Test func createEnforcesTheGrammar() {
            expectNoLeaks {
                let source = Observable<Int>.create { observer in
                    observer.onNext(1)
                    observer.onCompleted()
                    observer.onNext(2)
                    observer.onError(TestError())
                    observer.onCompleted()
                    return Disposables.create()
                }
                var events: [Event<Int>] = []
                _ = source.subscribe { events.append($0) }
                #expect(events == [.next(1), .completed])
            }
        }

        @Test func createDisposesItsResourcesOnCompletionAndOnDispose() {
            expectNoLeaks {
                var disposals = 0
                var captured: AnyObserver<Int>?
                let source = Observable<Int>.create { observer in
                    captured = observer
                    return Disposables.create { disposals += 1 }
                }
                let subscription = source.subscribe(onNext: { _ in })
                captured?.onCompleted()
                #expect(disposals == 1)
                subscription.dispose()
                #expect(disposals == 1)

                var received: [Int] = []
                let second = source.subscribe(onNext: { received.append($0) })
                second.dispose()
                captured?.onNext(5)
                #expect(disposals == 2)
                #expect(received.isEmpty)
                captured = nil
            }
        }
    }
}
