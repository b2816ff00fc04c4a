import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct InfallibleTests {
        @Test func asInfallibleReplacesAnErrorWithAnElement() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(), Int.self)])
                let observer = scheduler.start { source.asInfallible(onErrorJustReturn: 0).map { $0 * 10 } }
                #expect(observer.events == [.next(210, 10), .next(220, 0), .completed(220)])
            }
        }

        @Test func fallbackAndRecoverContinueWithAnotherInfallible() {
            expectNoLeaks {
                let failing = Observable<Int>.error(TestError())
                let fallback = recordedEvents { failing.asInfallible(onErrorFallbackTo: .of(1, 2)) }
                let recovered = recordedEvents { failing.asInfallible(onErrorRecover: { _ in .just(3) }) }
                #expect(fallback == [.next(200, 1), .next(200, 2), .completed(200)])
                #expect(recovered == [.next(200, 3), .completed(200)])
            }
        }

        @Test func subscribeReportsElementsCompletionAndDisposal() {
            expectNoLeaks {
                var log: [String] = []
                _ = Infallible.of(1, 2).subscribe(
                    onNext: { log.append("\($0)") }, onCompleted: { log.append("completed") },
                    onDisposed: { log.append("disposed") })
                #expect(log == ["1", "2", "completed", "disposed"])
            }
        }

        @Test func createSendsElementsAndCompletion() {
            expectNoLeaks {
                let events = recordedEvents {
                    Infallible<Int>.create { observer in
                        observer(.next(1))
                        observer(.completed)
                        observer(.next(2))
                        return Disposables.create()
                    }
                }
                #expect(events == [.next(200, 1), .completed(200)])
            }
        }

        @Test func operatorsKeepTheTrait() {
            expectNoLeaks {
                let relay = BehaviorRelay(value: 1)
                var received: [Int] = []
                let subscription = relay.asInfallible()
                    .filter { $0 > 1 }.distinctUntilChanged().scan(0, accumulator: +)
                    .flatMapLatest { Infallible.just($0 * 100) }
                    .subscribe(onNext: { received.append($0) })
                relay.accept(2)
                relay.accept(2)
                relay.accept(3)
                subscription.dispose()
                #expect(received == [200, 500])
            }
        }

        @Test func combineLatestAndZipOfInfallibles() {
            expectNoLeaks {
                let combined = recordedEvents { Infallible.combineLatest(Infallible.just(1), .just(2)) { $0 + $1 } }
                let zipped = recordedEvents { Infallible.zip(Infallible.of(1, 2), .of(10, 20)) { $0 + $1 } }
                #expect(combined == [.next(200, 3), .completed(200)])
                #expect(zipped == [.next(200, 11), .next(200, 22), .completed(200)])
            }
        }
    }
}
