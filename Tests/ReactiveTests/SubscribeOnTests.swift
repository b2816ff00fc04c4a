import Dispatch
import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct SubscribeOnTests {
        @Test func subscribesAndDisposesOnTheScheduler() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
                let observer = scheduler.start(disposed: 300) { source.subscribe(on: scheduler) }
                #expect(observer.events == [.next(210, 1), .next(220, 2)])
                #expect(source.subscriptions == [Subscription(201, 301)])
            }
        }

        // RxSwift's testSubscribeOn_SchedulerCompleted: the source ends, and its subscription is disposed on the
        // scheduler (a tick later), not at once.
        @Test func aSourceThatEndsIsDisposedOnTheSchedulerToo() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(150, 1), .completed(300, Int.self)])
                let observer = scheduler.start { source.subscribe(on: scheduler) }
                #expect(observer.events == [.completed(300)])
                #expect(source.subscriptions == [Subscription(201, 301)])
            }
        }

        @Test func aSourceThatFailsIsDisposedOnTheSchedulerToo() {
            expectNoLeaks {
                struct Failure: Error, Equatable {}
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(150, 1), .error(300, Failure(), Int.self)])
                let observer = scheduler.start { source.subscribe(on: scheduler) }
                #expect(observer.events.count == 1)
                #expect(source.subscriptions == [Subscription(201, 301)])
            }
        }

        @Test func subscribesOnABackgroundScheduler() {
            expectNoLeaks {
                // A private queue, so the test can wait for the disposal that `subscribe(on:)` schedules there.
                let queue = DispatchQueue(label: "background", attributes: .concurrent)
                let background = ConcurrentDispatchQueueScheduler(queue: queue)
                let screen = ScreenScheduler(label: "subscribe-on")
                let subscribedOnScreen = Collector<Bool>()
                let done = Collector<Int>()
                let subscription = Observable.deferred { () -> Observable<Int> in
                    subscribedOnScreen.append(ScreenScheduler.current != nil)
                    return .just(1)
                }
                .subscribe(on: background)
                .observe(on: screen)
                .subscribe(onNext: { done.append($0) })
                while done.values.isEmpty { screen.sync {} }
                subscription.dispose()
                queue.sync(flags: .barrier) {}
                screen.sync {}
                #expect(subscribedOnScreen.values == [false])
                #expect(done.values == [1])
            }
        }
    }
}
