import Foundation
import ScreenplayTesting
import ViewKit
import XCTest

/// `assertSnapshot` under XCTest: with no Swift Testing test running, failures go to `XCTFail`.
final class SnapshotXCTestTests: XCTestCase {
    private var recordedFailures: [String] = []

    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        recordedFailures.append(description)
    }

    private let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("snapshot-xctest-\(UUID().uuidString)").path

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
        super.tearDown()
    }

    func testMatchingSnapshotPassesUnderXCTest() {
        _ = verifySnapshot(of: "<p>a</p>", as: .html, named: "x", record: .missing, snapshotDirectory: directory)
        assertSnapshot(of: "<p>a</p>", as: .html, named: "x", record: .never, snapshotDirectory: directory)
        XCTAssertEqual(recordedFailures, [])
    }

    func testMismatchIsReportedThroughXCTFail() {
        _ = verifySnapshot(of: "<p>a</p>", as: .html, named: "y", record: .missing, snapshotDirectory: directory)
        assertSnapshot(of: "<p>b</p>", as: .html, named: "y", record: .never, snapshotDirectory: directory)
        XCTAssertEqual(recordedFailures.count, 1)
        XCTAssertTrue(recordedFailures.first?.contains("-<p>a</p>\n+<p>b</p>") ?? false, "\(recordedFailures)")
    }
}
