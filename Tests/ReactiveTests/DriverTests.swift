import Dispatch
import Foundation
import Primitives
import Reactive
import Testing

/// Runs `body` on a fresh screen scheduler and returns its result.
func onScreen<T: Sendable>(_ scheduler: ScreenScheduler, _ body: () -> T) -> T {
    scheduler.sync(body)
}

extension ReactiveTests {
    @Suite struct DriverTests {
        @Test func neverFailsWhenBuiltWithOnErrorJustReturn() {
            expectNoLeaks {
                let scheduler = ScreenScheduler(label: "driver")
                let received = onScreen(scheduler) { () -> [String] in
                    var log: [String] = []
                    _ = Observable<Int>.error(TestError()).asDriver(onErrorJustReturn: 0)
                        .drive(onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") })
                    return log
                }
                #expect(received == ["next 0", "completed"])
            }
        }

        @Test func onErrorDriveWithAndOnErrorRecoverContinue() {
            expectNoLeaks {
                let scheduler = ScreenScheduler(label: "driver")
                let received = onScreen(scheduler) { () -> [Int] in
                    var log: [Int] = []
                    let failing = Observable<Int>.just(1).concat(Observable.error(TestError()))
                    _ = failing.asDriver(onErrorDriveWith: .just(2)).drive(onNext: { log.append($0) })
                    _ = failing.asDriver(onErrorRecover: { _ in .just(3) }).drive(onNext: { log.append($0) })
                    return log
                }
                #expect(received == [1, 2, 1, 3])
            }
        }

        @Test func replaysTheLatestElementSynchronouslyInsideDrive() {
            expectNoLeaks {
                let scheduler = ScreenScheduler(label: "driver")
                let relay = BehaviorRelay(value: "first")
                let received = onScreen(scheduler) { () -> [String] in
                    var log: [String] = []
                    let subscription = relay.asDriver().drive(onNext: { log.append($0) })
                    let seenBeforeReturn = log
                    subscription.dispose()
                    return seenBeforeReturn
                }
                #expect(received == ["first"])
            }
        }

        @Test func sharesOneSourceSubscriptionAndReplaysToLaterSubscribers() {
            expectNoLeaks {
                let scheduler = ScreenScheduler(label: "driver")
                let result = onScreen(scheduler) { () -> [String] in
                    var log: [String] = []
                    let subject = PublishSubject<Int>()
                    let driver = subject.do(onSubscribe: { log.append("subscribe") })
                        .asDriver(onErrorJustReturn: -1)
                    let first = driver.drive(onNext: { log.append("a\($0)") })
                    subject.onNext(1)
                    let second = driver.drive(onNext: { log.append("b\($0)") })
                    subject.onNext(2)
                    first.dispose()
                    second.dispose()
                    return log
                }
                #expect(result == ["subscribe", "a1", "b1", "a2", "b2"])
            }
        }

        @Test func disconnectsWhenTheLastSubscriberLeaves() {
            expectNoLeaks {
                let scheduler = ScreenScheduler(label: "driver")
                let subject = PublishSubject<Int>()
                let result = onScreen(scheduler) { () -> [Int] in
                    var log: [Int] = []
                    let driver = subject.asDriver(onErrorJustReturn: -1)
                    driver.drive(onNext: { log.append($0) }).dispose()
                    subject.onNext(1)
                    // A fresh connection: the element sent while disconnected is not replayed.
                    let again = driver.drive(onNext: { log.append($0) })
                    subject.onNext(2)
                    again.dispose()
                    return log
                }
                #expect(result == [2])
                #expect(!subject.hasObservers)
            }
        }

        @Test func deliversLaterElementsOnTheSubscribingScreen() {
            expectNoLeaks {
                let scheduler = ScreenScheduler(label: "driver")
                let relay = BehaviorRelay(value: 0)
                let onItsScreen = Collector<Bool>()
                let values = Collector<Int>()
                let subscription = ScreenConfined<(any Disposable)?>(nil, on: scheduler)
                scheduler.sync {
                    subscription.value = relay.asDriver().drive(onNext: { value in
                        values.append(value)
                        onItsScreen.append(ScreenScheduler.current === scheduler)
                    })
                }
                DispatchQueue.concurrentPerform(iterations: 1) { _ in
                    for value in 1...50 { relay.accept(value) }
                }
                scheduler.sync { subscription.value?.dispose() }
                #expect(values.values == Array(0...50))
                #expect(onItsScreen.values.allSatisfy { $0 })
            }
        }

        @Test func twoScreensDrivingOneDriverEachReceiveOnTheirOwn() {
            expectNoLeaks {
                let relay = BehaviorRelay(value: 0)
                let driver = relay.asDriver()
                let screens = [ScreenScheduler(label: "one"), ScreenScheduler(label: "two")]
                let deliveries = Collector<String>()
                let bags = screens.map { screen in ScreenConfined(DisposeBag(), on: screen) }
                for (screen, bag) in zip(screens, bags) {
                    screen.sync {
                        driver.drive(onNext: { value in
                            deliveries.append("\(ScreenScheduler.current?.label ?? "none"):\(value)")
                        })
                        .disposed(by: bag.value)
                    }
                }
                relay.accept(1)
                for (screen, bag) in zip(screens, bags) { screen.sync { bag.value = DisposeBag() } }
                #expect(Set(deliveries.values) == ["one:0", "two:0", "one:1", "two:1"])
            }
        }

        @Test func deliversNothingAfterDisposalOnTheScreen() {
            expectNoLeaks {
                let scheduler = ScreenScheduler(label: "driver")
                let relay = BehaviorRelay(value: 0)
                let values = Collector<Int>()
                let subscription = ScreenConfined<(any Disposable)?>(nil, on: scheduler)
                scheduler.sync {
                    subscription.value = relay.asDriver().drive(onNext: { values.append($0) })
                }
                // Queue a hop, then dispose on the screen before the hop runs.
                let gate = DispatchSemaphore(value: 0)
                scheduler.schedule { gate.wait() }
                relay.accept(1)
                scheduler.schedule { subscription.value?.dispose() }
                gate.signal()
                scheduler.sync {}
                #expect(values.values == [0, 1] || values.values == [0])
                relay.accept(2)
                scheduler.sync {}
                #expect(!values.values.contains(2))
            }
        }

        @Test func operatorsKeepTheTrait() {
            expectNoLeaks {
                let scheduler = ScreenScheduler(label: "driver")
                let relay = BehaviorRelay(value: 1)
                let result = onScreen(scheduler) { () -> [String] in
                    var log: [String] = []
                    let other = BehaviorRelay(value: "x").asDriver()
                    let bag = DisposeBag()
                    relay.asDriver().map { $0 * 2 }.filter { $0 > 0 }.distinctUntilChanged()
                        .drive(onNext: { log.append("\($0)") }).disposed(by: bag)
                    Driver.combineLatest(relay.asDriver(), other) { "\($0)\($1)" }
                        .drive(onNext: { log.append($0) }).disposed(by: bag)
                    relay.asDriver().flatMapLatest { value in Driver.just(value + 100) }.startWith(0)
                        .drive(onNext: { log.append("\($0)") }).disposed(by: bag)
                    relay.accept(1)
                    return log
                }
                #expect(result == ["2", "1x", "0", "101", "1x", "101"])
            }
        }

        @Test func drivesObserversAndRelays() {
            expectNoLeaks {
                let scheduler = ScreenScheduler(label: "driver")
                let source = BehaviorRelay(value: 5)
                let target = BehaviorRelay(value: 0)
                let published = PublishRelay<Int>()
                let result = onScreen(scheduler) { () -> [Int] in
                    var log: [Int] = []
                    let bag = DisposeBag()
                    published.subscribe(onNext: { log.append($0) }).disposed(by: bag)
                    source.asDriver().drive(target).disposed(by: bag)
                    source.asDriver().drive(published).disposed(by: bag)
                    source.asDriver().drive(AnyObserver { log.append(($0.element ?? -1) * 10) }).disposed(by: bag)
                    return log + [target.value]
                }
                #expect(result == [5, 50, 5])
            }
        }

        @Test func drivingOffAScreenSchedulerIsAReportedProgrammerErrorThatStopsNothing() async {
            // In a process of its own, with no handler installed: the report goes to standard error, and the
            // process goes on (a trap would end a server's every page).
            let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                let relay = BehaviorRelay(value: 1)
                let delivered = Locked(false)
                _ = relay.asDriver().drive(onNext: { _ in delivered.withLock { $0 = true } })
                if delivered.withLock({ $0 }) { exit(3) }
            }
            let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(message.contains("programmer error: drive(onNext:) was called off a screen scheduler"))
            #expect(message.contains("Fix: call it from code running on a ScreenScheduler"))
        }
    }
}
