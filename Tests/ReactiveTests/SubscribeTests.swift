import Reactive
import Testing

extension ReactiveTests {
    @Suite struct SubscribeTests {
        @Test func callsEachHandlerAndOnDisposedOnce() {
            expectNoLeaks {
                var log: [String] = []
                let subscription = Observable.of(1, 2).subscribe(
                    onNext: { log.append("next \($0)") }, onError: { _ in log.append("error") },
                    onCompleted: { log.append("completed") }, onDisposed: { log.append("disposed") })
                subscription.dispose()
                #expect(log == ["next 1", "next 2", "completed", "disposed"])
            }
        }

        @Test func onDisposedRunsOnExplicitDisposal() {
            expectNoLeaks {
                var log: [String] = []
                let subscription = Observable<Int>.never().subscribe(onDisposed: { log.append("disposed") })
                #expect(log.isEmpty)
                subscription.dispose()
                subscription.dispose()
                #expect(log == ["disposed"])
            }
        }

        @Test func subscribeWithObjectDropsEventsAfterItIsReleased() {
            expectNoLeaks {
                final class Owner { var values: [Int] = [] }
                let relay = PublishRelay<Int>()
                var owner: Owner? = Owner()
                weak let weakOwner = owner
                let subscription = relay.subscribe(with: owner!, onNext: { owner, value in owner.values.append(value) })
                relay.accept(1)
                #expect(owner?.values == [1])
                owner = nil
                #expect(weakOwner == nil)
                relay.accept(2)
                subscription.dispose()
            }
        }

        @Test func bindToRelaysAndObservers() {
            expectNoLeaks {
                let target = BehaviorRelay(value: 0)
                let publish = PublishRelay<Int>()
                var viaObserver: [Int?] = []
                let observer = AnyObserver<Int?> { if let element = $0.element { viaObserver.append(element) } }
                let bag = DisposeBag()
                publish.bind(to: target).disposed(by: bag)
                publish.bind(to: observer).disposed(by: bag)
                publish.accept(7)
                #expect(target.value == 7)
                #expect(viaObserver == [7])
            }
        }

        @Test func bindToOneOrSeveralRelaysOfEachKind() {
            expectNoLeaks {
                let source = PublishRelay<Int>()
                let (first, second) = (BehaviorRelay(value: 0), BehaviorRelay(value: 0))
                let (third, fourth) = (PublishRelay<Int>(), PublishRelay<Int>())
                var heard: [String] = []
                let bag = DisposeBag()
                third.subscribe(onNext: { heard.append("third \($0)") }).disposed(by: bag)
                fourth.subscribe(onNext: { heard.append("fourth \($0)") }).disposed(by: bag)
                source.bind(to: first, second).disposed(by: bag)
                source.bind(to: third).disposed(by: bag)
                source.bind(to: third, fourth).disposed(by: bag)
                source.accept(3)
                #expect(first.value == 3 && second.value == 3)
                #expect(heard == ["third 3", "third 3", "fourth 3"])
                let lone = BehaviorRelay(value: 0)
                let subscription = source.bind(to: lone)
                source.accept(4)
                subscription.dispose()
                source.accept(5)
                #expect(lone.value == 4)
            }
        }

        @Test func disposingASubscriptionReleasesTheObserver() {
            let relay = PublishRelay<Int>()
            weak var released: Box?
            let subscription: any Disposable
            do {
                let box = Box()
                released = box
                subscription = relay.map { $0 + 1 }.subscribe(onNext: { _ in _ = box })
            }
            #expect(released != nil)
            subscription.dispose()
            #expect(released == nil)
        }
    }
}
