import Foundation
import Reactive
import Screenplay
import ScreenplayTesting
import TestSupport
import Testing

/// App code's mistakes fail the page load they happen in, with a log line naming the screen and the fix; the server
/// (and this test process, which runs it) goes on.
@Suite struct ProgrammerErrorTests {
    @Test func aBinderNothingKeepsAliveFailsItsPageNotTheProcess() throws {
        let app = try OperationsTestApp(factory: { _ in
            let viewController = CounterViewController()
            // The mistake: the binder is made but not inserted into the bag, so it is gone before viewDidLoad.
            _ = CounterBinder(viewController: viewController, driver: CounterDriver(onLeave: {}))
            return viewController
        })
        defer { app.stop() }
        let page = try app.client.get("/counter")
        #expect(page.status == 500)
        #expect(!page.text.contains("CounterBinder"), "nothing internal on the page outside development mode")
        let failed = try #require(app.log.events("screen.failed").first)
        #expect(failed["screen"] == "CounterViewController")
        #expect(failed["error"]?.contains("CounterBinder was released") == true)
        #expect(failed["error"]?.contains("viewController.bag.insert(binder)") == true)
        #expect(app.application.openSessionCount == 0)
        #expect(try app.client.get("/healthz").status == 200)
    }

    @Test func driveOffAScreenSubscribesNothingAndIsReported() {
        let reports = ReportedMistakes.shared
        let received = TestMutex<[Int]>([])
        let line = #line + 1
        let subscription = Driver.just(1).drive(onNext: { value in received.withLock { $0.append(value) } })
        subscription.dispose()
        #expect(received.withLock { $0 }.isEmpty)
        #expect(
            reports.all.contains {
                $0.mistake.contains("drive(onNext:) was called off a screen scheduler")
                    && $0.mistake.contains("ProgrammerErrorTests.swift:\(line)") && $0.fix.contains("bindLoaded")
            })
    }

    @Test func aCallAfterItsOwnerIsGoneDoesNothingAndIsReportedToItsScreen() {
        final class Owner {
            var calls = 0
            func tap() { calls += 1 }
        }
        let screen = ScreenScheduler(label: "mistakes")
        let mistakes = TestMutex<[ProgrammerError]>([])
        screen.onProgrammerError { error in mistakes.withLock { $0.append(error) } }
        var owner: Owner? = Owner()
        let call = Transfer(unowned(owner!, in: Owner.tap))
        owner = nil
        screen.sync { call.value() }
        let reported = mistakes.withLock { $0 }
        #expect(reported.count == 1)
        #expect(reported.first?.mistake.contains("Owner was released") == true)
    }
}

/// What the process-wide reporter received while these tests ran (installed once: it is the process's).
final class ReportedMistakes: Sendable {
    static let shared = ReportedMistakes()
    private let mistakes = TestMutex<[ProgrammerError]>([])

    private init() {
        ProgrammerErrors.install { [mistakes] error, _ in mistakes.withLock { $0.append(error) } }
    }

    var all: [ProgrammerError] { mistakes.withLock { $0 } }
}

/// Hands a closure to a scheduler's thread in a test.
struct Transfer<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
