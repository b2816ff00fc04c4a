import Foundation
import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    /// Mistakes of app code in the reactive types are reported to the screen they happen on and do something safe,
    /// where they used to stop the process at a `precondition`.
    @Suite struct ReportedMistakesTests {
        /// The mistakes a screen reported, appended and read on its thread (the scheduler orders the two).
        final class Reported: @unchecked Sendable { var all: [String] = [] }

        /// Runs `body` on a screen of its own; what it returns, and the mistakes reported there.
        private func onScreen<T: Sendable>(_ body: @escaping @Sendable () -> T) -> (T, [String]) {
            let screen = ScreenScheduler(label: "reactive-mistakes")
            let reported = Reported()
            screen.onProgrammerError { error in reported.all.append("\(error)") }
            let result = screen.sync { body() }
            return (result, screen.sync { reported.all })
        }

        @Test func negativeCountsAreZeroAndSaySo() {
            let (received, reported) = onScreen { () -> [[Int]] in
                var taken: [Int] = [], replayed: [Int] = [], shared: [Int] = []
                _ = Observable.from([1, 2, 3]).take(-1).subscribe(onNext: { taken.append($0) })
                let subject = ReplaySubject<Int>.create(bufferSize: -2)
                subject.onNext(1)
                _ = subject.subscribe(onNext: { replayed.append($0) })
                let relay = BehaviorRelay(value: 7)
                let share = relay.asObservable().share(replay: -1)
                _ = share.subscribe(onNext: { _ in })
                _ = share.subscribe(onNext: { shared.append($0) })
                return [taken, replayed, shared]
            }
            #expect(received == [[], [], []])
            #expect(reported.count == 3)
            #expect(reported[0].contains("take(_:) was given -1, a negative count; it uses 0."))
            #expect(reported[1].contains("ReplaySubject.create(bufferSize:) was given -2"))
            #expect(reported[2].contains("share(replay:) was given -1"))
        }

        @Test func aSecondAssignmentIsDisposedAndReported() {
            let (disposed, reported) = onScreen { () -> [Bool] in
                let holder = SingleAssignmentDisposable()
                var firstDisposed = false, secondDisposed = false
                holder.setDisposable(Disposables.create { firstDisposed = true })
                holder.setDisposable(Disposables.create { secondDisposed = true })
                let before = [firstDisposed, secondDisposed]
                holder.dispose()
                return before + [firstDisposed]
            }
            #expect(disposed == [false, true, true])
            #expect(reported.count == 1)
            #expect(reported.first?.contains("setDisposable was called twice") == true)
        }

        @Test func syncOnTheSchedulerItselfRunsInPlaceInsteadOfWaitingForever() {
            let screen = ScreenScheduler(label: "reentrant")
            let reported = Reported()
            screen.onProgrammerError { error in reported.all.append("\(error)") }
            let value = screen.sync { screen.sync { 42 } }
            #expect(value == 42)
            #expect(
                screen.sync { reported.all }.first?.contains("ScreenScheduler.sync was called on reentrant") == true)
        }
    }
}

extension ReactiveTests.ReportedMistakesTests {
    struct Failure: Error, CustomStringConvertible {
        var description: String { "the store is gone" }
    }

    @Test func anUnhandledErrorIsReportedAndTheProcessGoesOnInEveryBuild() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            var received: [Int] = []
            _ = Observable<Int>.create { observer in
                observer.onNext(1)
                observer.onError(Failure())
                return Disposables.create()
            }.subscribe(onNext: { received.append($0) })
            let relay = PublishRelay<Int>()
            _ = Observable<Int>.error(Failure()).bind(to: relay)
            if received != [1] { exit(2) }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("An error reached subscribe(onNext:) without an onError handler"))
        #expect(message.contains("the store is gone"))
        #expect(message.contains("An error reached a binding"))
    }
}
