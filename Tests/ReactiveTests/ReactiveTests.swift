import Reactive
import ReactiveTesting
import Testing

/// Every suite of this module nests in this one so that they run one at a time: each checks that
/// `Resources.total` (a process-wide count) returns to its baseline, which concurrent suites would
/// disturb.
@Suite(.serialized)
struct ReactiveTests {}

/// Runs `body` and expects every subscription resource it created to be released by its end.
func expectNoLeaks(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
) rethrows {
    let before = Resources.total
    try body()
    #expect(Resources.total == before, "live Reactive resources after disposal", sourceLocation: sourceLocation)
}

/// An error for tests.
struct TestError: Error, Equatable {
    var code = 1
}

/// Collects values from any thread.
final class Collector<Value: Sendable>: Sendable {
    private let storage = LockedArray<Value>()

    func append(_ value: Value) { storage.append(value) }

    var values: [Value] { storage.values }
}

/// The events the sequence `create` makes sends when subscribed at 200 on a fresh `TestScheduler` (created at 100,
/// disposed at 1000).
func recordedEvents<Output: ObservableConvertibleType>(_ create: @escaping () -> Output)
    -> [Recorded<Event<Output.Element>>]
{
    TestScheduler(initialClock: 0).start(create).events
}
