import Foundation
import HTTPServer
import Reactive
import Screenplay
import ScreenplayTesting
import Synchronization
import TestSupport

/// Collects log lines in memory.
final class LogRecorder: Sendable {
    private let storage = TestMutex<[String]>([])

    var lines: [String] { storage.withLock { $0 } }

    @Sendable func record(_ line: String) { storage.withLock { $0.append(line) } }

    func logger(level: Logger.Level = .debug, format: Logger.Format = .json) -> Logger {
        Logger(level: level, format: format, sink: { [self] line in storage.withLock { $0.append(line) } })
    }

    /// The JSON lines whose `event` is `event`, decoded.
    func events(_ event: String) -> [[String: String]] {
        lines.compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String],
                object["event"] == event
            else { return nil }
            return object
        }
    }
}

/// A counter app with operations settings, on an ephemeral port, optionally serving from a copy of the fixtures (so a
/// test can edit templates).
struct OperationsTestApp {
    let application: Application
    let factory: CounterFactory
    let log = LogRecorder()
    let root: String

    /// The browser the test drives: its cookies last as long as the app.
    private let browser = LiveClient(port: 0)
    var client: LiveClient { LiveClient(port: application.port, sameBrowserAs: browser) }

    init(
        operations: OperationsConfiguration = OperationsConfiguration(), accessLog: Bool = true,
        sessions: SessionConfiguration = SessionConfiguration(), copyFixtures: Bool = false,
        factory: (@Sendable (ScreenRequest) throws -> CounterViewController)? = nil
    ) throws {
        var server = ServerConfiguration()
        server.port = 0
        server.accessLog = accessLog
        server.heartbeatInterval = .seconds(1)
        var operations = operations
        operations.logger = log.logger(level: operations.logger.level, format: .json)
        if copyFixtures {
            root = NSTemporaryDirectory() + "screenplay-ops-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: root + "/Public", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: fixtureTemplates, toPath: root + "/Templates")
        } else {
            root = fixtureRoot
        }
        application = try Application(root: root, server: server, sessions: sessions, operations: operations)
        let counters = CounterFactory()
        self.factory = counters
        let make = factory ?? { request in counters.make(request) }
        try application.screen("/counter", CounterViewController.self, parent: "/counter?from=leave", factory: make)
        try application.start()
    }

    /// Stops the server and removes the copied fixtures.
    func stop() {
        application.stop()
        if root != fixtureRoot { try? FileManager.default.removeItem(atPath: root) }
    }

    /// Writes a file under the root, with a new modification time even within the file system's time resolution.
    func write(_ text: String, to relativePath: String) throws {
        try text.write(toFile: root + "/" + relativePath, atomically: true, encoding: .utf8)
    }

    /// The value of the sample `name` (with its labels, as written) in `/metrics`.
    func metric(_ name: String) throws -> Double? {
        let text = try client.get("/metrics").text
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1))
        }
        return nil
    }
}
