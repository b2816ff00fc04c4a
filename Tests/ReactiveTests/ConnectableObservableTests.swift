import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct ConnectableObservableTests {
        @Test func publishSubscribesToTheSourceOnlyWhenConnected() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([
                    .next(210, 1), .next(240, 2), .next(260, 3), .next(320, 4), .completed(400),
                ])
                let connectable = source.publish()
                let first = scheduler.createObserver(Int.self)
                let second = scheduler.createObserver(Int.self)
                var connection: (any Disposable)?
                var subscriptions: [any Disposable] = []
                scheduler.scheduleAt(200) { subscriptions.append(connectable.subscribe(first)) }
                scheduler.scheduleAt(230) { connection = connectable.connect() }
                scheduler.scheduleAt(250) { subscriptions.append(connectable.subscribe(second)) }
                scheduler.scheduleAt(300) { connection?.dispose() }
                scheduler.start()
                #expect(first.events == [.next(240, 2), .next(260, 3)])
                #expect(second.events == [.next(260, 3)])
                #expect(source.subscriptions == [Subscription(230, 300)])
                for subscription in subscriptions { subscription.dispose() }
            }
        }

        @Test func connectWhileConnectedReturnsTheSameConnection() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1)])
                let connectable = source.publish()
                var connections: [any Disposable] = []
                scheduler.scheduleAt(200) {
                    connections.append(connectable.connect())
                    connections.append(connectable.connect())
                }
                scheduler.scheduleAt(300) { connections[1].dispose() }
                scheduler.start()
                #expect(source.subscriptions == [Subscription(200, 300)])
            }
        }

        @Test func replayReplaysTheLastElementsOfTheConnection() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
                let replayed = source.replay(2)
                let all = source.replayAll()
                let late = scheduler.createObserver(Int.self)
                let lateAll = scheduler.createObserver(Int.self)
                var disposables: [any Disposable] = []
                scheduler.scheduleAt(200) {
                    disposables.append(replayed.connect())
                    disposables.append(all.connect())
                }
                scheduler.scheduleAt(250) {
                    disposables.append(replayed.subscribe(late))
                    disposables.append(all.subscribe(lateAll))
                }
                scheduler.scheduleAt(300) { for disposable in disposables { disposable.dispose() } }
                scheduler.start()
                #expect(late.events == [.next(250, 2), .next(250, 3)])
                #expect(lateAll.events == [.next(250, 1), .next(250, 2), .next(250, 3)])
            }
        }

        @Test func aStopEventEndsTheConnectionAndTheNextConnectStartsOver() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createColdObservable([.next(10, 1), .completed(20)])
                let connectable = source.replayAll()
                let first = scheduler.createObserver(Int.self)
                let second = scheduler.createObserver(Int.self)
                var disposables: [any Disposable] = []
                scheduler.scheduleAt(200) {
                    disposables.append(connectable.subscribe(first))
                    disposables.append(connectable.connect())
                }
                scheduler.scheduleAt(300) {
                    disposables.append(connectable.subscribe(second))
                    disposables.append(connectable.connect())
                }
                scheduler.start()
                #expect(first.events == [.next(210, 1), .completed(220)])
                #expect(second.events == [.next(310, 1), .completed(320)])
                #expect(source.subscriptions == [Subscription(200, 220), Subscription(300, 320)])
                for disposable in disposables { disposable.dispose() }
            }
        }

        @Test func multicastThroughAGivenSubject() {
            expectNoLeaks {
                let subject = PublishSubject<Int>()
                var received: [Int] = []
                let connectable = Observable.of(1, 2, 3).multicast(subject)
                let subscription = connectable.subscribe(onNext: { received.append($0) })
                #expect(received == [])
                _ = connectable.connect()
                #expect(received == [1, 2, 3])
                subscription.dispose()
            }
        }

        @Test func multicastWithASelectorConnectsPerSubscriber() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([
                    .next(210, 1), .next(220, 2), .next(230, 3), .completed(240),
                ])
                let observer = scheduler.start {
                    source.multicast(
                        { PublishSubject<Int>() },
                        selector: { shared in
                            Observable.zip(shared, shared.skip(1)) { $0 * 10 + $1 }
                        })
                }
                #expect(observer.events == [.next(220, 12), .next(230, 23), .completed(240)])
                #expect(source.subscriptions == [Subscription(200, 240)])
            }
        }

        @Test func refCountConnectsForTheFirstSubscriberAndDisconnectsAfterTheLast() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .next(320, 3)])
                let shared = source.publish().refCount()
                let first = scheduler.createObserver(Int.self)
                let second = scheduler.createObserver(Int.self)
                var firstSubscription: (any Disposable)?
                var secondSubscription: (any Disposable)?
                scheduler.scheduleAt(200) { firstSubscription = shared.subscribe(first) }
                scheduler.scheduleAt(250) { secondSubscription = shared.subscribe(second) }
                scheduler.scheduleAt(270) { firstSubscription?.dispose() }
                scheduler.scheduleAt(280) { secondSubscription?.dispose() }
                scheduler.scheduleAt(300) { firstSubscription = shared.subscribe(first) }
                scheduler.scheduleAt(400) { firstSubscription?.dispose() }
                scheduler.start()
                #expect(first.events == [.next(210, 1), .next(260, 2), .next(320, 3)])
                #expect(second.events == [.next(260, 2)])
                #expect(source.subscriptions == [Subscription(200, 280), Subscription(300, 400)])
            }
        }
    }
}
