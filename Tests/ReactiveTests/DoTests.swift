import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct DoTests {
        @Test func runsSideEffectsInOrder() {
            expectNoLeaks {
                var log: [String] = []
                let subscription = Observable.of(1, 2)
                    .do(
                        onNext: { log.append("next \($0)") }, afterNext: { log.append("after \($0)") },
                        onCompleted: { log.append("completed") }, onSubscribe: { log.append("subscribe") },
                        onSubscribed: { log.append("subscribed") }, onDispose: { log.append("dispose") }
                    )
                    .subscribe(onNext: { log.append("got \($0)") })
                subscription.dispose()
                // `of` defers its loop to the current-thread trampoline, as in RxSwift, so the
                // subscription is complete before the first element.
                #expect(
                    log == [
                        "subscribe", "subscribed", "next 1", "got 1", "after 1", "next 2", "got 2", "after 2",
                        "completed", "dispose",
                    ])
            }
        }

        @Test func aThrowingOnNextFails() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1)])
                let observer = scheduler.start { source.do(onNext: { _ in throw TestError() }) }
                #expect(observer.events == [.error(210, TestError())])
            }
        }
    }
}
