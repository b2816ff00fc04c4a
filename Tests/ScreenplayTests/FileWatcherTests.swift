import Foundation
import TestSupport
import Testing

@testable import Screenplay

/// The watcher's debounce, polled by hand at chosen instants over real files.
@Suite struct FileWatcherTests {
    private let folder = NSTemporaryDirectory() + "file-watcher-" + UUID().uuidString
    private let reports = TestMutex<[[String]]>([])
    private let start = ContinuousClock.now

    private func watcher() throws -> FileWatcher {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "<p>first</p>".write(toFile: folder + "/Page.html", atomically: false, encoding: .utf8)
        let reports = reports
        return FileWatcher(directories: [folder], quietPeriod: .milliseconds(100)) { paths in
            reports.withLock { $0.append(paths) }
        }
    }

    private func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }

    @Test func reportsASaveInStepsOnceWhenItHasSettled() throws {
        let watcher = try watcher()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A save caught half-way: a temporary file, half-written.
        let temporary = folder + "/.Page.html.tmp"
        try "<p>sec".write(toFile: temporary, atomically: false, encoding: .utf8)
        watcher.poll(at: at(10))
        watcher.poll(at: at(60))
        try "<p>second</p>".write(toFile: temporary, atomically: false, encoding: .utf8)
        watcher.poll(at: at(120))
        // Renamed over the file: the save is complete, but not yet quiet for the period.
        _ = rename(temporary, folder + "/Page.html")
        watcher.poll(at: at(130))
        watcher.poll(at: at(200))
        #expect(reports.withLock { $0 }.isEmpty)
        watcher.poll(at: at(230))
        #expect(reports.withLock { $0 } == [[folder + "/Page.html"]])
        // Nothing more to say while nothing changes.
        watcher.poll(at: at(500))
        #expect(reports.withLock { $0 }.count == 1)
    }

    @Test func reportsAddedAndRemovedFilesTogether() throws {
        let watcher = try watcher()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "a {}".write(toFile: folder + "/site.css", atomically: false, encoding: .utf8)
        try FileManager.default.removeItem(atPath: folder + "/Page.html")
        watcher.poll(at: at(10))
        watcher.poll(at: at(110))
        #expect(reports.withLock { $0 } == [[folder + "/Page.html", folder + "/site.css"]])
    }

    @Test func aFileThatKeepsGrowingIsNotReportedUntilItStops() throws {
        let watcher = try watcher()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var text = "<p>"
        for step in 0..<10 {
            text += "more "
            try text.write(toFile: folder + "/Page.html", atomically: false, encoding: .utf8)
            watcher.poll(at: at(step * 50))
        }
        #expect(reports.withLock { $0 }.isEmpty)
        watcher.poll(at: at(9 * 50 + 100))
        #expect(reports.withLock { $0 } == [[folder + "/Page.html"]])
    }
}
