import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct ShareTests {
        @Test func sharesOneSubscriptionAndReplaysWhileConnected() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(100, 3)])
                var shared: Observable<Int>!
                var subscriptions: [any Disposable] = []
                let first = scheduler.createObserver(Int.self)
                let second = scheduler.createObserver(Int.self)
                let third = scheduler.createObserver(Int.self)
                scheduler.scheduleAt(100) { shared = source.share(replay: 1, scope: .whileConnected) }
                scheduler.scheduleAt(200) { subscriptions.append(shared.subscribe(first)) }
                scheduler.scheduleAt(225) { subscriptions.append(shared.subscribe(second)) }
                scheduler.scheduleAt(250) { subscriptions.forEach { $0.dispose() } }
                scheduler.scheduleAt(400) { subscriptions = [shared.subscribe(third)] }
                scheduler.scheduleAt(415) { subscriptions.forEach { $0.dispose() } }
                scheduler.start()
                #expect(first.events == [.next(210, 1), .next(220, 2)])
                #expect(second.events == [.next(225, 2)])
                // After disconnecting, a new subscriber gets a fresh connection with no stale replay.
                #expect(third.events == [.next(410, 1)])
                #expect(source.subscriptions == [Subscription(200, 250), Subscription(400, 415)])
                subscriptions = []
                shared = nil
            }
        }

        @Test func withoutReplayLateSubscribersSeeOnlyNewElements() {
            expectNoLeaks {
                let subject = PublishSubject<Int>()
                var subscribeCount = 0
                let shared = subject.do(onSubscribe: { subscribeCount += 1 }).share()
                var first: [Int] = []
                var second: [Int] = []
                let a = shared.subscribe(onNext: { first.append($0) })
                subject.onNext(1)
                let b = shared.subscribe(onNext: { second.append($0) })
                subject.onNext(2)
                #expect(first == [1, 2])
                #expect(second == [2])
                #expect(subscribeCount == 1)
                a.dispose()
                b.dispose()
                #expect(!subject.hasObservers)
            }
        }

        @Test func aStoppedConnectionIsReplacedWhileConnected() {
            expectNoLeaks {
                var subscribeCount = 0
                let shared = Observable.deferred { () -> Observable<Int> in
                    subscribeCount += 1
                    return .just(subscribeCount)
                }
                .share(replay: 1)
                var received: [Int] = []
                _ = shared.subscribe(onNext: { received.append($0) })
                _ = shared.subscribe(onNext: { received.append($0) })
                #expect(received == [1, 2])
            }
        }

        @Test func foreverKeepsTheReplayBufferAfterDisconnect() {
            expectNoLeaks {
                let subject = PublishSubject<Int>()
                let shared = subject.share(replay: 1, scope: .forever)
                var first: [Int] = []
                let a = shared.subscribe(onNext: { first.append($0) })
                subject.onNext(1)
                a.dispose()
                #expect(!subject.hasObservers)
                var second: [Int] = []
                let b = shared.subscribe(onNext: { second.append($0) })
                #expect(second == [1])
                #expect(subject.hasObservers)
                subject.onNext(2)
                #expect(second == [1, 2])
                b.dispose()
            }
        }
    }
}
