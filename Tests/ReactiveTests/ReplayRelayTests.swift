import Foundation
import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct ReplayRelayTests {
        @Test func replaysTheLastElementsToEachNewSubscriber() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let relay = ReplayRelay<Int>.create(bufferSize: 2)
                let early = scheduler.createObserver(Int.self)
                let late = scheduler.createObserver(Int.self)
                var subscriptions: [any Disposable] = []
                scheduler.scheduleAt(100) { subscriptions.append(relay.subscribe(early)) }
                for (time, value) in [(110, 1), (120, 2), (130, 3)] {
                    scheduler.scheduleAt(time) { relay.accept(value) }
                }
                scheduler.scheduleAt(200) { subscriptions.append(relay.subscribe(late)) }
                scheduler.scheduleAt(210) { relay.accept(4) }
                scheduler.scheduleAt(300) { subscriptions.forEach { $0.dispose() } }
                scheduler.scheduleAt(310) { relay.accept(5) }
                scheduler.start()
                #expect(early.events == [.next(110, 1), .next(120, 2), .next(130, 3), .next(210, 4)])
                #expect(late.events == [.next(200, 2), .next(200, 3), .next(210, 4)])
            }
        }

        @Test func aBufferOfOneReplaysTheLatest() {
            expectNoLeaks {
                let relay = ReplayRelay<String>.create(bufferSize: 1)
                for value in ["a", "b", "c"] { relay.accept(value) }
                var received: [Event<String>] = []
                let subscription = relay.subscribe { received.append($0) }
                relay.accept("d")
                subscription.dispose()
                relay.accept("e")
                #expect(received == [.next("c"), .next("d")])
            }
        }

        @Test func aBufferOfZeroReplaysNothing() {
            expectNoLeaks {
                let relay = ReplayRelay<Int>.create(bufferSize: 0)
                relay.accept(1)
                var received: [Int] = []
                let subscription = relay.subscribe(onNext: { received.append($0) })
                relay.accept(2)
                subscription.dispose()
                #expect(received == [2])
            }
        }

        @Test func anUnboundRelayReplaysEverything() {
            expectNoLeaks {
                let relay = ReplayRelay<Int>.createUnbound()
                for value in 1...100 { relay.accept(value) }
                var received: [Int] = []
                let subscription = relay.asObservable().subscribe(onNext: { received.append($0) })
                subscription.dispose()
                #expect(received == Array(1...100))
            }
        }

        @Test func neverSendsAStopEvent() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let relay = ReplayRelay<Int>.create(bufferSize: 3)
                let observer = scheduler.start { relay.asObservable().map { $0 * 10 } }
                #expect(observer.events.isEmpty)
                relay.accept(1)
                var received: [Event<Int>] = []
                let subscription = relay.subscribe { received.append($0) }
                subscription.dispose()
                #expect(received == [.next(1)])
            }
        }

        @Test func disposalStopsDelivery() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let relay = ReplayRelay<Int>.create(bufferSize: 3)
                scheduler.scheduleAt(210) { relay.accept(1) }
                scheduler.scheduleAt(310) { relay.accept(2) }
                let observer = scheduler.start(disposed: 300) { relay }
                #expect(observer.events == [.next(210, 1)])
            }
        }

        /// The mistakes a screen reported, appended and read on its thread (the scheduler orders the two).
        final class Reported: @unchecked Sendable { var all: [String] = [] }

        @Test func aNegativeBufferSizeIsZeroAndSaysSo() {
            let screen = ScreenScheduler(label: "replay-relay-mistakes")
            let reported = Reported()
            screen.onProgrammerError { error in reported.all.append("\(error)") }
            let received = screen.sync { () -> [Int] in
                let relay = ReplayRelay<Int>.create(bufferSize: -1)
                relay.accept(1)
                var received: [Int] = []
                let subscription = relay.subscribe(onNext: { received.append($0) })
                relay.accept(2)
                subscription.dispose()
                return received
            }
            #expect(received == [2])
            let mistakes = screen.sync { reported.all }
            #expect(mistakes.count == 1)
            #expect(
                mistakes.first?.contains("ReplayRelay.create(bufferSize:) was given -1, a negative count; it uses 0.")
                    == true)
        }
    }
}
