import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct OptionalRelayBindingTests {
        @Test func drivesANonOptionalDriverIntoOptionalRelays() {
            expectNoLeaks {
                let scheduler = ScreenScheduler(label: "optional-relays")
                let source = BehaviorRelay(value: 5)
                let behavior = BehaviorRelay<Int?>(value: nil)
                let published = PublishRelay<Int?>()
                let replayed = ReplayRelay<Int?>.create(bufferSize: 2)
                let result = onScreen(scheduler) { () -> [String] in
                    var log: [String] = []
                    let bag = DisposeBag()
                    published.subscribe(onNext: { log.append("publish \(String(describing: $0))") }).disposed(by: bag)
                    source.asDriver().drive(behavior).disposed(by: bag)
                    source.asDriver().drive(published).disposed(by: bag)
                    source.asDriver().drive(replayed).disposed(by: bag)
                    source.accept(6)
                    replayed.subscribe(onNext: { log.append("replay \(String(describing: $0))") }).disposed(by: bag)
                    log.append("behavior \(String(describing: behavior.value))")
                    return log
                }
                #expect(
                    result == [
                        "publish Optional(5)", "publish Optional(6)", "replay Optional(5)", "replay Optional(6)",
                        "behavior Optional(6)",
                    ])
            }
        }

        @Test func drivesIntoSeveralRelaysAtOnceAndStopsOnDisposal() {
            expectNoLeaks {
                let scheduler = ScreenScheduler(label: "optional-relays")
                let source = BehaviorRelay(value: "a")
                let first = BehaviorRelay<String?>(value: nil)
                let second = BehaviorRelay<String?>(value: nil)
                let result = onScreen(scheduler) { () -> [String?] in
                    let subscription = source.asDriver().drive(first, second)
                    source.accept("b")
                    subscription.dispose()
                    source.accept("c")
                    return [first.value, second.value]
                }
                #expect(result == ["b", "b"])
            }
        }

        @Test func drivesIntoAReplayRelayOfTheSameElement() {
            expectNoLeaks {
                let scheduler = ScreenScheduler(label: "optional-relays")
                let source = BehaviorRelay(value: 1)
                let replayed = ReplayRelay<Int>.createUnbound()
                let result = onScreen(scheduler) { () -> [Int] in
                    var log: [Int] = []
                    let bag = DisposeBag()
                    source.asDriver().drive(replayed).disposed(by: bag)
                    source.accept(2)
                    replayed.subscribe(onNext: { log.append($0) }).disposed(by: bag)
                    return log
                }
                #expect(result == [1, 2])
            }
        }

        @Test func emitsANonOptionalSignalIntoOptionalRelays() {
            expectNoLeaks {
                let scheduler = ScreenScheduler(label: "optional-relays")
                let source = PublishRelay<Int>()
                let behavior = BehaviorRelay<Int?>(value: nil)
                let published = PublishRelay<Int?>()
                let replayed = ReplayRelay<Int?>.create(bufferSize: 1)
                let plainReplayed = ReplayRelay<Int>.create(bufferSize: 1)
                let result = onScreen(scheduler) { () -> [String] in
                    var log: [String] = []
                    let bag = DisposeBag()
                    published.subscribe(onNext: { log.append("publish \(String(describing: $0))") }).disposed(by: bag)
                    source.asSignal().emit(to: behavior).disposed(by: bag)
                    source.asSignal().emit(to: published).disposed(by: bag)
                    source.asSignal().emit(to: replayed).disposed(by: bag)
                    source.asSignal().emit(to: plainReplayed).disposed(by: bag)
                    log.append("behavior \(String(describing: behavior.value))")
                    source.accept(7)
                    replayed.subscribe(onNext: { log.append("replay \(String(describing: $0))") }).disposed(by: bag)
                    plainReplayed.subscribe(onNext: { log.append("plain \($0)") }).disposed(by: bag)
                    log.append("behavior \(String(describing: behavior.value))")
                    return log
                }
                #expect(
                    result == [
                        "behavior nil", "publish Optional(7)", "replay Optional(7)", "plain 7", "behavior Optional(7)",
                    ])
            }
        }

        @Test func bindsAnObservableIntoOptionalRelaysInVirtualTime() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
                let behavior = BehaviorRelay<Int?>(value: nil)
                let published = PublishRelay<Int?>()
                let replayed = ReplayRelay<Int?>.createUnbound()
                let plainReplayed = ReplayRelay<Int>.createUnbound()
                let publishedObserver = scheduler.createObserver(Int?.self)
                let replayedObserver = scheduler.createObserver(Int?.self)
                let plainObserver = scheduler.createObserver(Int.self)
                let bag = DisposeBag()
                published.subscribe(publishedObserver).disposed(by: bag)
                source.bind(to: behavior).disposed(by: bag)
                source.bind(to: published).disposed(by: bag)
                source.bind(to: replayed).disposed(by: bag)
                source.bind(to: plainReplayed).disposed(by: bag)
                scheduler.scheduleAt(300) {
                    replayed.subscribe(replayedObserver).disposed(by: bag)
                    plainReplayed.subscribe(plainObserver).disposed(by: bag)
                }
                scheduler.start()
                // A relay never completes: the source's completion is not forwarded.
                #expect(publishedObserver.events == [.next(210, 1), .next(220, 2)])
                #expect(replayedObserver.events == [.next(300, 1), .next(300, 2)])
                #expect(plainObserver.events == [.next(300, 1), .next(300, 2)])
                #expect(behavior.value == 2)
                #expect(source.subscriptions == Array(repeating: Subscription(0, 230), count: 4))
            }
        }

        @Test func bindsIntoSeveralOptionalPublishRelays() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, "x")])
                let first = PublishRelay<String?>()
                let second = PublishRelay<String?>()
                let firstObserver = scheduler.createObserver(String?.self)
                let secondObserver = scheduler.createObserver(String?.self)
                let bag = DisposeBag()
                first.subscribe(firstObserver).disposed(by: bag)
                second.subscribe(secondObserver).disposed(by: bag)
                let binding = source.bind(to: first, second)
                scheduler.scheduleAt(250) { binding.dispose() }
                scheduler.start()
                #expect(firstObserver.events == [.next(210, "x")])
                #expect(secondObserver.events == [.next(210, "x")])
                #expect(source.subscriptions == [Subscription(0, 250)])
            }
        }
    }
}
