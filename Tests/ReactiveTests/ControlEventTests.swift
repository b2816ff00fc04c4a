import Reactive
import Testing

extension ReactiveTests {
    @Suite struct ControlEventTests {
        @Test func forwardsTheViewsEventsWithoutReplay() {
            expectNoLeaks {
                let taps = PublishSubject<Void>()
                let event = ControlEvent(events: taps)
                taps.onNext(())
                var count = 0
                let subscription = event.bind(onNext: { count += 1 })
                taps.onNext(())
                taps.onNext(())
                #expect(count == 2)
                subscription.dispose()
                #expect(!taps.hasObservers)
            }
        }

        @Test func convertsToSignalAndDriver() {
            expectNoLeaks {
                let scheduler = ScreenScheduler(label: "control-event")
                let result = onScreen(scheduler) { () -> [Int] in
                    var log: [Int] = []
                    let values = PublishSubject<Int>()
                    let event = ControlEvent(events: values)
                    let bag = DisposeBag()
                    event.asSignal().emit(onNext: { log.append($0) }).disposed(by: bag)
                    event.asDriver().drive(onNext: { log.append($0 * 10) }).disposed(by: bag)
                    values.onNext(1)
                    return log
                }
                #expect(result == [1, 10])
            }
        }
    }
}
