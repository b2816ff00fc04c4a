import Foundation
import Primitives
internal import Reactive
import Testing

#if canImport(XCTest)
    import XCTest
#endif

/// Asserts that `value`, as `snapshotting` renders it, matches the reference file beside the test.
///
/// The reference lives in `__Snapshots__/<TestFile>/<testName>.<n>.<ext>` next to the test file
/// (`n` counts the assertions of a test from 1, or `named` replaces it), so paths hold on any
/// machine; `snapshotDirectory` overrides the directory. Record mode comes from `record`, else `SNAPSHOT_TESTING_RECORD`, else `.missing`.
/// On a mismatch the failure names the reference, shows a line diff, and writes the actual
/// snapshot beside it as `<name>.actual.<ext>`. Reports through Swift Testing when a Swift
/// Testing test is running, through XCTest otherwise.
///
/// ```swift
/// @Test func rendersTitle() {
///     let label = Label(text: "Heat", tagName: "h1")
///     assertSnapshot(of: label, as: .html)   // __Snapshots__/LabelTests/rendersTitle.1.html
/// }
/// ```
public func assertSnapshot<Value>(
    of value: @autoclosure () throws -> Value,
    as snapshotting: Snapshotting<Value>,
    named name: String? = nil,
    record recording: SnapshotRecordMode? = nil,
    snapshotDirectory: String? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    testName: String = #function,
    line: UInt = #line,
    column: UInt = #column
) {
    let failure = verifySnapshot(
        of: try value(), as: snapshotting, named: name, record: recording, snapshotDirectory: snapshotDirectory,
        file: filePath, testName: testName)
    guard let failure else { return }
    if Test.current != nil {
        Issue.record(
            Comment(rawValue: failure),
            sourceLocation: SourceLocation(
                fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column)))
    } else {
        #if canImport(XCTest)
            XCTFail(failure, file: filePath, line: line)
        #else
            print("Snapshot failure at \(filePath):\(line): \(failure)")
        #endif
    }
}

/// Compares `value` with its reference like `assertSnapshot`, and returns the failure message
/// instead of reporting it (`nil` when it matches). Useful for custom assertions.
public func verifySnapshot<Value>(
    of value: @autoclosure () throws -> Value,
    as snapshotting: Snapshotting<Value>,
    named name: String? = nil,
    record recording: SnapshotRecordMode? = nil,
    snapshotDirectory: String? = nil,
    file filePath: StaticString = #filePath,
    testName: String = #function
) -> String? {
    let mode = recording ?? SnapshotRecordMode.current
    let testFile = URL(fileURLWithPath: "\(filePath)")
    let directory =
        snapshotDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
        ?? testFile.deletingLastPathComponent()
        .appendingPathComponent("__Snapshots__")
        .appendingPathComponent(testFile.deletingPathExtension().lastPathComponent)
    let test = sanitizedPathComponent(testName)
    let counter = SnapshotCounter.shared.next(for: directory.path + "/" + test)
    let identifier = name.map(sanitizedPathComponent) ?? String(counter)
    let reference = directory.appendingPathComponent("\(test).\(identifier).\(snapshotting.pathExtension)")
    let actualFile = directory.appendingPathComponent("\(test).\(identifier).actual.\(snapshotting.pathExtension)")
    let fileManager = FileManager.default

    let actual: String
    do {
        actual = snapshotting.snapshot(try value())
    } catch {
        return "Snapshot of \(reference.lastPathComponent) could not be taken: \(error)"
    }

    func write() -> String? {
        do {
            try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: reference)
            try? fileManager.removeItem(at: actualFile)
            return nil
        } catch {
            return "Could not write the reference \(reference.path): \(error)"
        }
    }

    if mode == .all {
        return write()
            ?? """
            Recorded the reference \(reference.path) (record mode "all"). \
            Turn record mode off and run again to compare.
            """
    }
    guard let data = fileManager.contents(atPath: reference.path) else {
        if mode == .never {
            return """
                No reference at \(reference.path), and record mode is "never". \
                Record it locally (SNAPSHOT_TESTING_RECORD=missing) and commit it.
                """
        }
        return write()
            ?? """
            No reference was found on disk. Recorded \(reference.path); \
            review it and run again.
            """
    }
    let expected = String(decoding: data, as: UTF8.self)
    guard let difference = snapshotting.difference(expected, actual) else {
        try? fileManager.removeItem(at: actualFile)
        return nil
    }
    let wrote = (try? Data(actual.utf8).write(to: actualFile)) != nil
    return """
        Snapshot does not match the reference \(reference.path)
        \(wrote ? "Actual snapshot written to \(actualFile.path)" : "Could not write \(actualFile.path)")
        (- reference, + actual)
        \(difference)
        """
}

/// `rendersTitle()` → `rendersTitle`; anything but letters, digits, `-` and `_` becomes `-`.
private func sanitizedPathComponent(_ string: String) -> String {
    var result = string
    if let parenthesis = result.firstIndex(of: "("), result.hasSuffix(")") {
        let arguments = result[result.index(after: parenthesis)..<result.index(before: result.endIndex)]
        result = arguments.isEmpty ? String(result[..<parenthesis]) : result
    }
    let mapped = result.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" }
    return String(String(mapped).split(separator: "-", omittingEmptySubsequences: true).joined(separator: "-"))
}

/// Counts the snapshot assertions of each test, so each gets its own numbered reference.
final class SnapshotCounter: Sendable {
    static let shared = SnapshotCounter()
    private let counts = Locked<[String: Int]>([:])

    func next(for key: String) -> Int {
        counts.withLock { counts in
            counts[key, default: 0] += 1
            return counts[key]!
        }
    }
}
