import Dispatch
import Foundation
import Reactive
import ReactiveTesting
import TestSupport
import Testing

extension ReactiveTests {
    @Suite struct ConflatedTests {
        @Test func deliversOnTheSchedulerInOrderWhenItKeepsUp() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
                let observer = scheduler.start { source.conflated(on: scheduler) }
                #expect(observer.events == [.next(211, 1), .next(221, 2), .completed(231)])
            }
        }

        @Test func aBusyScreenGetsOnlyTheNewestElementThenTheStop() {
            let screen = ScreenScheduler(label: "conflated")
            let subject = PublishSubject<Int>()
            let received = Collector<Int>()
            let completed = Collector<Bool>()
            let onScreen = Collector<Bool>()
            let subscription = subject.conflated(on: screen).subscribe(
                onNext: { value in
                    received.append(value)
                    onScreen.append(screen.isCurrent)
                },
                onCompleted: { completed.append(true) })
            defer { subscription.dispose() }
            // The screen is busy while a producer on another thread emits a hundred values.
            whileBusy({ screen.schedule($0) }) {
                for value in 1...100 { subject.onNext(value) }
                subject.onCompleted()
            }
            screen.sync {}
            #expect(received.values == [100])
            #expect(completed.values == [true])
            #expect(onScreen.values == [true])
        }

        @Test func aHeldScreenKeepsOnlyTheNewestElementUntilItResumes() {
            let screen = ScreenScheduler(label: "conflated-held")
            screen.hold()
            let subject = PublishSubject<Int>()
            let received = Collector<Int>()
            let subscription = subject.conflated(on: screen).subscribe(onNext: { received.append($0) })
            defer { subscription.dispose() }
            for value in 1...100 { subject.onNext(value) }
            screen.sync {}
            usleep(20_000)
            screen.sync {}
            // Held: nothing ran, and the scheduler is not busy with it.
            #expect(received.values.isEmpty)
            #expect(screen.isIdle)
            // Resumed in a turn: the newest element arrives in that very turn.
            let inTurn = screen.sync { () -> [Int] in
                screen.resume()
                return received.values
            }
            #expect(inTurn == [100])
            subject.onNext(101)
            screen.sync {}
            for _ in 0..<500 where received.values.count < 2 { usleep(1_000) }
            #expect(received.values == [100, 101])
        }

        @Test func aHeldScreenPausesAPausableSourceAndResumesItWhenItIsWatched() {
            final class Source: PausableDisposable, Sendable {
                let calls = Collector<String>()
                func pause() { calls.append("pause") }
                func resume() { calls.append("resume") }
                func dispose() { calls.append("dispose") }
            }
            let source = Source()
            let screen = ScreenScheduler(label: "conflated-paused")
            screen.hold()
            let subscription = Observable<Int>.create { _ in source }.conflated(on: screen).subscribe(onNext: { _ in })
            #expect(source.calls.values == ["pause"])
            screen.sync { screen.resume() }
            #expect(source.calls.values == ["pause", "resume"])
            // Watched, an action's catch-up leaves the source alone.
            screen.sync { screen.catchUp() }
            #expect(source.calls.values == ["pause", "resume"])
            // Held again: paused; an action's catch-up resumes it for the turn and pauses it again.
            screen.hold()
            screen.sync { screen.catchUp() }
            #expect(source.calls.values == ["pause", "resume", "pause", "resume", "pause"])
            subscription.dispose()
            #expect(source.calls.values == ["pause", "resume", "pause", "resume", "pause", "dispose"])
        }

        /// A subscription disposed of leaves the screen's other sources registered: each of the rest still resumes
        /// when the screen is watched again, and the disposed one does not.
        @Test func aDisposedSourceLeavesTheOthersRegistered() {
            final class Source: PausableDisposable, Sendable {
                let name: String
                let calls: Collector<String>
                init(_ name: String, calls: Collector<String>) { (self.name, self.calls) = (name, calls) }
                func pause() { calls.append("pause \(name)") }
                func resume() { calls.append("resume \(name)") }
                func dispose() { calls.append("dispose \(name)") }
            }
            let calls = Collector<String>()
            let sources = ["a", "b", "c"].map { Source($0, calls: calls) }
            let screen = ScreenScheduler(label: "conflated-unregistered")
            screen.hold()
            let subscriptions = sources.map { source in
                Observable<Int>.create { _ in source }.conflated(on: screen).subscribe(onNext: { _ in })
            }
            subscriptions[0].dispose()
            screen.sync { screen.resume() }
            #expect(Array(calls.values.prefix(4)) == ["pause a", "pause b", "pause c", "dispose a"])
            #expect(Set(calls.values.dropFirst(4)) == ["resume b", "resume c"] && calls.values.count == 6)
            subscriptions[1].dispose()
            subscriptions[2].dispose()
            // None left: holding and resuming again reaches no source.
            screen.hold()
            screen.sync { screen.resume() }
            #expect(Array(calls.values.dropFirst(6)) == ["dispose b", "dispose c"])
        }

        @Test func runningHeldWorkCatchesUpAndGoesOnHolding() {
            let screen = ScreenScheduler(label: "conflated-caught-up")
            screen.hold()
            let subject = PublishSubject<Int>()
            let received = Collector<Int>()
            let subscription = subject.conflated(on: screen).subscribe(onNext: { received.append($0) })
            defer { subscription.dispose() }
            subject.onNext(1)
            subject.onNext(2)
            let caughtUp = screen.sync { () -> [Int] in
                screen.catchUp()
                return received.values
            }
            #expect(caughtUp == [2])
            subject.onNext(3)
            usleep(20_000)
            screen.sync {}
            #expect(received.values == [2])
        }

        @Test func anElementOfferedDuringADrainComesInTheNextOne() {
            let screen = ScreenScheduler(label: "conflated-again")
            let subject = PublishSubject<Int>()
            let received = Collector<Int>()
            let subscription = subject.conflated(on: screen).subscribe(onNext: { value in
                received.append(value)
                // A value emitted while the screen handles this one is not lost.
                if value == 1 { DispatchQueue.global().sync { subject.onNext(2) } }
            })
            defer { subscription.dispose() }
            subject.onNext(1)
            for _ in 0..<500 where received.values.count < 2 { usleep(10_000) }
            #expect(received.values == [1, 2])
        }

        @Test func anElementWaitingWhenTheSubscriptionIsDisposedIsReleasedAndNeverDelivered() {
            final class Payload: Sendable {}
            let screen = ScreenScheduler(label: "conflated-disposed")
            let subject = PublishSubject<Payload>()
            let received = Collector<Bool>()
            weak var waiting: Payload?
            let subscription = subject.conflated(on: screen).subscribe(onNext: { _ in received.append(true) })
            whileBusy({ screen.schedule($0) }) {
                do {
                    let first = Payload()
                    let second = Payload()
                    subject.onNext(first)
                    // The second replaces the first in the slot, which lets the first go.
                    subject.onNext(second)
                    waiting = second
                }
                #expect(waiting != nil)
                subscription.dispose()
                #expect(waiting == nil)
            }
            screen.sync {}
            #expect(received.values.isEmpty)
        }

        @Test func theSlotIsTheSubscriptionAndDisposesTheSourcesOnce() {
            expectNoLeaks {
                let screen = ScreenScheduler(label: "conflated-subscription")
                let disposals = Collector<Bool>()
                let source = Observable<Int>.create { _ in Disposables.create { disposals.append(true) } }
                let before = Resources.total
                let subscription = source.conflated(on: screen).subscribe(onNext: { _ in })
                // The subscriber's observer and its pair with the subscription, the two `create`s' sinks and the
                // source's disposable: no closure or disposable of the operator's own around its slot.
                #expect(Resources.total - before == 5)
                subscription.dispose()
                subscription.dispose()
                #expect(disposals.values == [true])
            }
        }

        @Test func nothingArrivesAfterDisposal() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let source = scheduler.createHotObservable([.next(210, 1), .next(250, 2)])
                let observer = scheduler.start(disposed: 250) { source.conflated(on: scheduler) }
                #expect(observer.events == [.next(211, 1)])
            }
        }
    }
}
