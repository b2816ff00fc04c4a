import Reactive
import Testing

extension ReactiveTests {
    @Suite struct SignalTests {
        @Test func doesNotReplayToNewSubscribers() {
            expectNoLeaks {
                let scheduler = ScreenScheduler(label: "signal")
                let relay = PublishRelay<Int>()
                let result = onScreen(scheduler) { () -> [String] in
                    var log: [String] = []
                    let signal = relay.asSignal()
                    let first = signal.emit(onNext: { log.append("a\($0)") })
                    relay.accept(1)
                    let second = signal.emit(onNext: { log.append("b\($0)") })
                    relay.accept(2)
                    first.dispose()
                    second.dispose()
                    return log
                }
                #expect(result == ["a1", "a2", "b2"])
            }
        }

        @Test func deliversOnTheSubscribingScreen() {
            expectNoLeaks {
                let scheduler = ScreenScheduler(label: "signal")
                let relay = PublishRelay<Int>()
                let onItsScreen = Collector<Bool>()
                let bag = ScreenConfined(DisposeBag(), on: scheduler)
                scheduler.sync {
                    relay.asSignal().emit(onNext: { _ in onItsScreen.append(scheduler.isCurrent) })
                        .disposed(by: bag.value)
                }
                relay.accept(1)
                relay.accept(2)
                scheduler.sync { bag.value = DisposeBag() }
                #expect(onItsScreen.values == [true, true])
            }
        }

        @Test func neverFailsAndEmitsToRelays() {
            expectNoLeaks {
                let scheduler = ScreenScheduler(label: "signal")
                let target = PublishRelay<Int>()
                let result = onScreen(scheduler) { () -> [Int] in
                    var log: [Int] = []
                    let bag = DisposeBag()
                    target.subscribe(onNext: { log.append($0) }).disposed(by: bag)
                    Observable<Int>.error(TestError()).asSignal(onErrorJustReturn: 9).emit(to: target)
                        .disposed(by: bag)
                    Observable<Int>.error(TestError()).asSignal(onErrorRecover: { _ in .just(8) }).emit(to: target)
                        .disposed(by: bag)
                    return log
                }
                #expect(result == [9, 8])
            }
        }

        @Test func emittingOffAScreenSchedulerIsAReportedProgrammerErrorThatStopsNothing() async {
            let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                _ = PublishRelay<Int>().asSignal().emit(onNext: { _ in })
            }
            let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(message.contains("programmer error: emit(onNext:) was called off a screen scheduler"))
        }
    }
}
