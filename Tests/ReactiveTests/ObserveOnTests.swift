import Dispatch
import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct ObserveOnTests {
        @Test func deliversOnTheSchedulerInOrder() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
                let observer = scheduler.start { source.observe(on: scheduler) }
                #expect(observer.events == [.next(211, 1), .next(221, 2), .completed(231)])
            }
        }

        @Test func nothingArrivesAfterDisposal() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(250, 2)])
                let observer = scheduler.start(disposed: 250) { source.observe(on: scheduler) }
                #expect(observer.events == [.next(211, 1)])
            }
        }

        @Test func movesEventsFromABackgroundThreadOntoAScreen() {
            let screen = ScreenScheduler(label: "observe-on")
            let relay = PublishRelay<Int>()
            let received = Collector<Int>()
            let onScreen = Collector<Bool>()
            let subscription = relay.observe(on: screen).subscribe(onNext: { value in
                received.append(value)
                onScreen.append(screen.isCurrent)
            })
            DispatchQueue.global().sync {
                for value in 0..<100 { relay.accept(value) }
            }
            screen.sync {}
            subscription.dispose()
            #expect(received.values == Array(0..<100))
            #expect(onScreen.values.allSatisfy { $0 })
        }
    }
}
