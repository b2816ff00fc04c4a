import Dispatch
import Foundation
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
    /// A negative `iterations` runs `body` once with that many, unmeasured (for callgrind).
    static func measure(_ name: String, iterations: Int, repetitions: Int = 5, _ body: (Int) -> Void) -> Result {
        if iterations <= 0 {
            body(-iterations)
            return Result(name: name, iterations: 0, seconds: 0)
        }
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
    static func chain(iterations: Int = 1_000_000) -> Result {
        measure("onNext through map → filter → distinctUntilChanged", iterations: iterations) { count in
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
    static func subscribeDispose(iterations: Int = 100_000) -> Result {
        let relay = BehaviorRelay(value: 1)
        return measure("subscribe + dispose (relay → map → filter → distinctUntilChanged)", iterations: iterations) {
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
    static func relayFanOut(iterations: Int = 2_000) -> Result {
        measure("BehaviorRelay.accept with 1,000 subscribers", iterations: iterations) { count in
            let relay = BehaviorRelay(value: 0)
            var sum = 0
            let bag = DisposeBag()
            for _ in 0..<1_000 { relay.subscribe(onNext: { sum &+= $0 }).disposed(by: bag) }
            for value in 0..<count { relay.accept(value) }
            precondition(sum != 1, "keeps the work observable")
        }
    }

    /// One element from another thread through a `Driver` onto a screen scheduler.
    static func driverHop(iterations: Int = 200_000) -> Result {
        measure("Driver element hopped onto a screen scheduler", iterations: iterations) { count in
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

    /// One element into each of two subjects through `combineLatest` to a subscriber.
    static func combineLatestTwo(iterations: Int = 200_000) -> Result {
        measure("onNext into both sources of combineLatest", iterations: iterations) { count in
            let first = PublishSubject<Int>()
            let second = PublishSubject<Int>()
            var sum = 0
            let subscription = Observable.combineLatest(first, second) { $0 &+ $1 }.subscribe(onNext: { sum &+= $0 })
            for value in 0..<count {
                first.onNext(value)
                second.onNext(value)
            }
            subscription.dispose()
            precondition(sum != 1, "keeps the work observable")
        }
    }

    /// One element into each of two subjects through `zip` to a subscriber.
    static func zipTwo(iterations: Int = 200_000) -> Result {
        measure("onNext into both sources of zip", iterations: iterations) { count in
            let first = PublishSubject<Int>()
            let second = PublishSubject<Int>()
            var sum = 0
            let subscription = Observable.zip(first, second) { $0 &+ $1 }.subscribe(onNext: { sum &+= $0 })
            for value in 0..<count {
                first.onNext(value)
                second.onNext(value)
            }
            subscription.dispose()
            precondition(sum != 1, "keeps the work observable")
        }
    }

    /// The benchmarks by name, each taking its operation count.
    static var named: [(String, (Int) -> Result)] {
        [
            ("chain", { chain(iterations: $0) }), ("subscribeDispose", { subscribeDispose(iterations: $0) }),
            ("relayFanOut", { relayFanOut(iterations: $0) }), ("driverHop", { driverHop(iterations: $0) }),
            ("combineLatestTwo", { combineLatestTwo(iterations: $0) }), ("zipTwo", { zipTwo(iterations: $0) }),
        ]
    }

    /// `ReactiveBenchmarks --once NAME COUNT` runs one benchmark once with `COUNT` operations, for callgrind
    /// (`--callgrind` subtracts a run of 0 operations and divides).
    static func runOnce(_ name: String, count: Int) {
        guard let benchmark = named.first(where: { $0.0 == name })?.1 else {
            print("unknown benchmark \(name); one of \(named.map(\.0))")
            return
        }
        _ = benchmark(-count)
    }

    /// How many operations each benchmark runs under callgrind.
    static let callgrindCounts = [
        "chain": 20_000, "subscribeDispose": 5_000, "relayFanOut": 50, "driverHop": 5_000, "combineLatestTwo": 20_000,
        "zipTwo": 20_000,
    ]

    /// `ReactiveBenchmarks --callgrind`: each benchmark's instructions per operation under callgrind (valgrind on
    /// PATH): a run of the benchmark's count of operations minus a run of none, divided by the count. Exact and
    /// repeatable, unlike the times, so a change's cost shows on a busy machine.
    static func callgrind() {
        print("Reactive benchmarks under callgrind (instructions per operation)")
        for (name, _) in named {
            let count = callgrindCounts[name] ?? 1_000
            guard let base = instructions(name, count: 0), let total = instructions(name, count: count) else {
                print("  \(name): valgrind failed")
                return
            }
            print("  \(name): \((total - base) / count)")
        }
    }

    /// The instructions callgrind counts for `--once name count`.
    private static func instructions(_ name: String, count: Int) -> Int? {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("reactive-callgrind-\(name)")
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "valgrind", "--tool=callgrind", "--callgrind-out-file=\(output.path)", CommandLine.arguments[0], "--once",
            name, "\(count)",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        guard let text = try? String(contentsOf: output, encoding: .utf8) else { return nil }
        let summary = text.split(separator: "\n").first { $0.hasPrefix("summary:") || $0.hasPrefix("totals:") }
        return summary?.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    static func run() {
        let arguments = CommandLine.arguments
        if arguments.count == 4, arguments[1] == "--once", let count = Int(arguments[3]) {
            runOnce(arguments[2], count: count)
            return
        }
        if arguments.count == 2, arguments[1] == "--callgrind" {
            callgrind()
            return
        }
        print("Reactive benchmarks (release build, fastest of 5 runs)")
        for result in [chain(), subscribeDispose(), relayFanOut(), driverHop(), combineLatestTwo(), zipTwo()] {
            let perIteration = result.nanosecondsPerIteration
            let formatted =
                perIteration >= 10_000
                ? "\((perIteration / 1_000 * 10).rounded() / 10) µs"
                : "\((perIteration * 10).rounded() / 10) ns"
            print("  \(result.name): \(formatted) per operation (\(result.iterations) operations)")
        }
    }
}
