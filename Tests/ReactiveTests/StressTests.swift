import Foundation
import Reactive
import Synchronization
import TestSupport
import Testing

/// Checks one observer's view of a stream emitted from many threads: never two deliveries at
/// once, nothing after the stop event, each emitter's elements in order, none lost.
final class GrammarChecker: Sendable {
    private struct State {
        var lastPerEmitter: [Int: Int] = [:]
        var count = 0
        var stops = 0
        var violations: [String] = []
    }

    private let inFlight = Atomic<Int>(0)
    private let state = TestMutex(State())

    func onNext(_ value: Int) {
        if inFlight.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue != 0 {
            record("concurrent delivery of \(value)")
        }
        state.withLock { state in
            if state.stops > 0 { state.violations.append("next \(value) after the stop event") }
            let emitter = value / 1_000_000
            let sequence = value % 1_000_000
            if let last = state.lastPerEmitter[emitter], last >= sequence {
                state.violations.append("emitter \(emitter): \(sequence) after \(last)")
            }
            state.lastPerEmitter[emitter] = sequence
            state.count += 1
        }
        inFlight.wrappingSubtract(1, ordering: .acquiringAndReleasing)
    }

    func onStop() {
        state.withLock { $0.stops += 1 }
    }

    private func record(_ violation: String) {
        state.withLock { $0.violations.append(violation) }
    }

    var count: Int { state.withLock { $0.count } }
    var stops: Int { state.withLock { $0.stops } }
    var violations: [String] { state.withLock { $0.violations } }
}

/// Runs `body(index)` on `count` threads at once and waits for all of them.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        let thread = Thread {
            body(index)
            group.leave()
        }
        thread.start()
    }
    group.wait()
}

extension ReactiveTests {
    @Suite struct StressTests {
        static let emitters = 8
        static let perEmitter = 2_000

        @Test func manyThreadsIntoASubjectWithManySubscribersKeepTheGrammar() {
            expectNoLeaks {
                let subject = PublishSubject<Int>()
                let checkers = (0..<8).map { _ in GrammarChecker() }
                let bag = DisposeBag()
                for checker in checkers {
                    subject.subscribe(
                        onNext: { checker.onNext($0) }, onError: { _ in checker.onStop() },
                        onCompleted: { checker.onStop() }
                    )
                    .disposed(by: bag)
                }
                // Subscribers that come and go while elements fly, through an operator chain.
                let churnViolations = TestMutex<[String]>([])
                let stopChurn = Atomic<Bool>(false)
                let churn = Thread {
                    while !stopChurn.load(ordering: .acquiring) {
                        let checker = GrammarChecker()
                        let subscription = subject.map { $0 }.filter { _ in true }
                            .subscribe(onNext: { checker.onNext($0) }, onCompleted: { checker.onStop() })
                        subscription.dispose()
                        churnViolations.withLock { $0.append(contentsOf: checker.violations) }
                    }
                }
                churn.start()
                onThreads(Self.emitters) { emitter in
                    for sequence in 0..<Self.perEmitter { subject.onNext(emitter * 1_000_000 + sequence) }
                }
                stopChurn.store(true, ordering: .releasing)
                while !churn.isFinished { usleep(1_000) }
                subject.onCompleted()
                subject.onNext(-1)
                for checker in checkers {
                    #expect(checker.violations == [])
                    #expect(checker.count == Self.emitters * Self.perEmitter)
                    #expect(checker.stops == 1)
                }
                #expect(churnViolations.withLock { $0 } == [])
            }
        }

        @Test func concurrentCompletionAndEmissionNeverDeliversAfterTheStop() {
            expectNoLeaks {
                for _ in 0..<20 {
                    let subject = PublishSubject<Int>()
                    let checker = GrammarChecker()
                    let subscription = subject.subscribe(
                        onNext: { checker.onNext($0) }, onCompleted: { checker.onStop() })
                    onThreads(4) { emitter in
                        for sequence in 0..<500 {
                            if emitter == 3 && sequence == 250 { subject.onCompleted() }
                            subject.onNext(emitter * 1_000_000 + sequence)
                        }
                    }
                    #expect(checker.violations == [])
                    #expect(checker.stops == 1)
                    subscription.dispose()
                }
            }
        }

        @Test func relayUpdatesFromManyThreadsReachAScreenInOrderAndLast() {
            expectNoLeaks {
                let relay = BehaviorRelay(value: 0)
                let scheduler = ScreenScheduler(label: "stress")
                let checker = GrammarChecker()
                let latest = TestMutex(0)
                let bag = ScreenConfined(DisposeBag(), on: scheduler)
                scheduler.sync {
                    relay.asDriver().map { $0 }.distinctUntilChanged()
                        .drive(onNext: { value in
                            if value != 0 { checker.onNext(value) }
                            latest.withLock { $0 = value }
                        })
                        .disposed(by: bag.value)
                }
                onThreads(Self.emitters) { emitter in
                    for sequence in 1...Self.perEmitter { relay.accept(emitter * 1_000_000 + sequence) }
                }
                scheduler.sync {}
                #expect(checker.violations == [])
                #expect(latest.withLock { $0 } == relay.value)
                scheduler.sync { bag.value = DisposeBag() }
            }
        }
    }
}
