import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct SharingSchedulerMockTests {
        @Test func driveOffAScreenDeliversOnTheMockScheduler() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let relay = BehaviorRelay(value: 1)
                let received = scheduler.createObserver(Int.self)
                SharingScheduler.mock(scheduler: scheduler) {
                    let bag = DisposeBag()
                    scheduler.scheduleAt(100) {
                        relay.asDriver().map { $0 * 10 }.drive(onNext: { received.onNext($0) }).disposed(by: bag)
                    }
                    scheduler.scheduleAt(200) { relay.accept(2) }
                    scheduler.scheduleAt(300) { bag.dispose() }
                    scheduler.scheduleAt(400) { relay.accept(3) }
                    scheduler.start()
                }
                // As RxCocoa's driver under a mock TestScheduler: each element is observed on it, one tick later.
                #expect(received.events == [.next(101, 10), .next(201, 20)])
            }
        }

        @Test func aDriversObservableRunsOnTheMockScheduler() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, "a"), .error(220, TestError(), String.self)])
                let observer = SharingScheduler.mock(scheduler: scheduler) {
                    scheduler.start { source.asDriver(onErrorJustReturn: "-").asObservable() }
                }
                #expect(observer.events == [.next(211, "a"), .next(221, "-"), .completed(221)])
            }
        }

        @Test func emitAndDriveIntoRelaysWorkUnderTheMock() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let signalSource = PublishRelay<Int>()
                let target = PublishRelay<Int>()
                let received = scheduler.createObserver(Int.self)
                let targetSubscription = target.subscribe(received)
                SharingScheduler.mock(scheduler: scheduler) {
                    let bag = DisposeBag()
                    signalSource.asSignal().emit(to: target).disposed(by: bag)
                    scheduler.scheduleAt(210) { signalSource.accept(5) }
                    scheduler.start()
                    bag.dispose()
                }
                targetSubscription.dispose()
                #expect(received.events == [.next(211, 5)])
            }
        }

        @Test func theMockIsRemovedAfterwards() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                var received: [Int] = []
                SharingScheduler.mock(scheduler: scheduler) {}
                // Off a screen with no mock: a reported mistake (on standard error here) and nothing subscribed;
                // with the mock left installed, the scheduler would deliver the element.
                let subscription = Driver.just(1).drive(onNext: { received.append($0) })
                scheduler.start()
                subscription.dispose()
                #expect(received == [])
            }
        }
    }
}
