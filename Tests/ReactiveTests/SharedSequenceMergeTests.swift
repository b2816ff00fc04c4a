import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct SharedSequenceMergeTests {
        @Test func driverMergeOfAnArraySendsEveryElementAndCompletesWhenAllHave() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createHotObservable([.next(210, 1), .next(230, 3), .completed(300)])
                let second = scheduler.createHotObservable([.next(220, 2), .next(240, 4), .completed(350)])
                let observer = scheduler.start {
                    Driver.merge([
                        first.asDriver(onErrorJustReturn: -1), second.asDriver(onErrorJustReturn: -1),
                    ]).asObservable()
                }
                #expect(
                    observer.events == [.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(350)])
                #expect(first.subscriptions == [Subscription(200, 300)])
                #expect(second.subscriptions == [Subscription(200, 350)])
            }
        }

        @Test func driverMergeOfACollectionDisposesEverySourceWithTheResult() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createHotObservable([.next(210, 1), .next(400, 9)])
                let second = scheduler.createHotObservable([.next(220, 2), .next(500, 9)])
                let observer = scheduler.start(disposed: 300) {
                    Driver.merge(
                        [first, second].lazy.map { $0.asDriver(onErrorJustReturn: -1) }
                    ).asObservable()
                }
                #expect(observer.events == [.next(210, 1), .next(220, 2)])
                #expect(first.subscriptions == [Subscription(200, 300)])
                #expect(second.subscriptions == [Subscription(200, 300)])
            }
        }

        @Test func driverMergeOnAScreenReplaysEachSourceThenSendsItsChanges() {
            expectNoLeaks {
                let scheduler = ScreenScheduler(label: "merge")
                let first = BehaviorRelay(value: 1)
                let second = BehaviorRelay(value: 2)
                let result = onScreen(scheduler) { () -> [Int] in
                    var log: [Int] = []
                    let subscription = Driver.merge([first.asDriver(), second.asDriver()])
                        .drive(onNext: { log.append($0) })
                    second.accept(3)
                    first.accept(4)
                    subscription.dispose()
                    first.accept(5)
                    return log
                }
                #expect(result == [1, 2, 3, 4])
            }
        }

        @Test func driverMergeOfJustsCompletes() {
            expectNoLeaks {
                let scheduler = ScreenScheduler(label: "merge")
                let result = onScreen(scheduler) { () -> [String] in
                    var log: [String] = []
                    _ = Driver.merge([Driver.just(1), Driver.just(2)])
                        .drive(onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") })
                    return log
                }
                #expect(result == ["next 1", "next 2", "completed"])
            }
        }

        @Test func driverMergeOfNothingCompletesAtOnce() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let observer = scheduler.start { Driver<Int>.merge([]).asObservable() }
                #expect(observer.events == [.completed(200)])
            }
        }

        @Test func signalMergeSendsEveryElementWithoutReplay() {
            expectNoLeaks {
                let scheduler = ScreenScheduler(label: "merge")
                let first = PublishRelay<Int>()
                let second = PublishRelay<Int>()
                let result = onScreen(scheduler) { () -> [String] in
                    var log: [String] = []
                    let merged = Signal.merge([first.asSignal(), second.asSignal()])
                    let a = merged.emit(onNext: { log.append("a\($0)") })
                    first.accept(1)
                    let b = merged.emit(onNext: { log.append("b\($0)") })
                    second.accept(2)
                    a.dispose()
                    b.dispose()
                    first.accept(3)
                    return log
                }
                #expect(result == ["a1", "a2", "b2"])
            }
        }

        @Test func signalMergeOfACollectionInVirtualTime() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let first = scheduler.createHotObservable([.next(210, "a"), .completed(250)])
                let second = scheduler.createColdObservable([.next(20, "b"), .completed(30)])
                let observer = scheduler.start {
                    Signal.merge(
                        [first, second].lazy.map { $0.asSignal(onErrorJustReturn: "error") }
                    ).asObservable()
                }
                #expect(observer.events == [.next(210, "a"), .next(220, "b"), .completed(250)])
            }
        }
    }
}
