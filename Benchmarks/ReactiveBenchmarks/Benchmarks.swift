import Dispatch
import Reactive

/// Measures the costs issue 3 asks for. Run in release mode: `swift run -c release ReactiveBenchmarks`.
enum Benchmarks {
    struct Result {
        let name: String
        let iterations: Int
        let seconds: Double

        var nanosecondsPerIteration: Double { seconds * 1e9 / Double(iterations) }
    }

    /// Runs `body` once to warm up, then `repetitions` times, and keeps the fastest run.
    static func measure(_ name: String, iterations: Int, repetitions: Int = 5, _ body: (Int) -> Void) -> Result {
        body(min(iterations, 1_000))
        var best = Double.infinity
        for _ in 0..<repetitions {
            let start = DispatchTime.now().uptimeNanoseconds
            body(iterations)
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            best = min(best, elapsed)
        }
        return Result(name: name, iterations: iterations, seconds: best)
    }

    /// One `onNext` through `map → filter → distinctUntilChanged` to a subscriber.
    static func chain() -> Result {
        measure("onNext through map → filter → distinctUntilChanged", iterations: 1_000_000) { count in
            let subject = PublishSubject<Int>()
            var sum = 0
            let subscription = subject.map { $0 &* 3 }.filter { $0 & 1 == 0 }.distinctUntilChanged()
                .subscribe(onNext: { sum &+= $0 })
            for value in 0..<count { subject.onNext(value) }
            subscription.dispose()
            precondition(sum != 1, "keeps the work observable")
        }
    }

    /// One subscribe and dispose of the same chain on a relay (replaying its value).
    static func subscribeDispose() -> Result {
        let relay = BehaviorRelay(value: 1)
        return measure("subscribe + dispose (relay → map → filter → distinctUntilChanged)", iterations: 100_000) {
            count in
            var sum = 0
            for _ in 0..<count {
                relay.map { $0 + 1 }.filter { $0 > 0 }.distinctUntilChanged()
                    .subscribe(onNext: { sum &+= $0 })
                    .dispose()
            }
            precondition(sum != 1, "keeps the work observable")
        }
    }

    /// One `BehaviorRelay.accept` delivered to 1,000 subscribers.
    static func relayFanOut() -> Result {
        measure("BehaviorRelay.accept with 1,000 subscribers", iterations: 2_000) { count in
            let relay = BehaviorRelay(value: 0)
            var sum = 0
            let bag = DisposeBag()
            for _ in 0..<1_000 { relay.subscribe(onNext: { sum &+= $0 }).disposed(by: bag) }
            for value in 0..<count { relay.accept(value) }
            precondition(sum != 1, "keeps the work observable")
        }
    }

    /// One element from another thread through a `Driver` onto a screen scheduler.
    static func driverHop() -> Result {
        measure("Driver element hopped onto a screen scheduler", iterations: 200_000) { count in
            let relay = BehaviorRelay(value: 0)
            let scheduler = ScreenScheduler(label: "benchmark")
            let bag = ScreenConfined(DisposeBag(), on: scheduler)
            scheduler.sync {
                var sum = 0
                relay.asDriver().drive(onNext: { sum &+= $0 }).disposed(by: bag.value)
            }
            for value in 0..<count { relay.accept(value) }
            scheduler.sync { bag.value = DisposeBag() }
        }
    }

    static func run() {
        print("Reactive benchmarks (release build, fastest of 5 runs)")
        for result in [chain(), subscribeDispose(), relayFanOut(), driverHop()] {
            let perIteration = result.nanosecondsPerIteration
            let formatted =
                perIteration >= 10_000
                ? "\((perIteration / 1_000 * 10).rounded() / 10) µs"
                : "\((perIteration * 10).rounded() / 10) ns"
            print("  \(result.name): \(formatted) per operation (\(result.iterations) operations)")
        }
    }
}
