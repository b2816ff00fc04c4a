import Foundation
import ScreenplayTesting
import Testing
import ViewKit

@Suite final class SnapshotAssertionTests {
    private let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("snapshot-tests-\(UUID().uuidString)").path

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func reference(_ name: String) -> String { directory + "/" + name }

    private func contents(_ name: String) -> String? {
        FileManager.default.contents(atPath: reference(name)).map { String(decoding: $0, as: UTF8.self) }
    }

    private func verify(_ html: String, record: SnapshotRecordMode, named name: String? = nil) -> String? {
        verifySnapshot(
            of: html, as: .html, named: name, record: record, snapshotDirectory: directory, testName: "page()")
    }

    @Test func missingReferenceIsRecordedAndReportedOnceInMissingMode() throws {
        let failure = try #require(verify("<p>Hello</p>", record: .missing))
        #expect(failure.contains("No reference was found on disk. Recorded \(reference("page.1.html"))"))
        #expect(contents("page.1.html") == "<p>Hello</p>\n")
        // The counter moved on; the same content under the first name now matches.
        #expect(verify("<p>Hello</p>", record: .missing, named: "1") == nil)
    }

    @Test func missingReferenceFailsWithoutWritingInNeverMode() throws {
        let failure = try #require(verify("<p>Hello</p>", record: .never))
        #expect(failure.contains("No reference at \(reference("page.1.html")), and record mode is \"never\""))
        #expect(contents("page.1.html") == nil)
    }

    @Test func allModeRewritesTheReferenceAndFails() throws {
        _ = verify("<p>Old</p>", record: .missing, named: "greeting")
        let failure = try #require(verify("<p>New</p>", record: .all, named: "greeting"))
        #expect(failure.contains("Recorded the reference \(reference("page.greeting.html")) (record mode \"all\")"))
        #expect(contents("page.greeting.html") == "<p>New</p>\n")
    }

    @Test func matchingReferencePassesInEveryMode() {
        _ = verify("<ul><li>a</li></ul>", record: .missing, named: "list")
        #expect(verify("<ul><li>a</li></ul>", record: .missing, named: "list") == nil)
        #expect(verify("<ul><li>a</li></ul>", record: .never, named: "list") == nil)
    }

    @Test func mismatchNamesTheReferenceShowsTheDiffAndWritesTheActualBesideIt() throws {
        _ = verify("<ul><li>a</li><li>b</li><li>c</li></ul>", record: .missing, named: "list")
        let failure = try #require(verify("<ul><li>a</li><li>B</li><li>c</li></ul>", record: .never, named: "list"))
        #expect(failure.hasPrefix("Snapshot does not match the reference \(reference("page.list.html"))"))
        #expect(failure.contains("Actual snapshot written to \(reference("page.list.actual.html"))"))
        #expect(
            failure.hasSuffix(
                """
                @@ -1,5 +1,5 @@
                 <ul>
                   <li>a</li>
                -  <li>b</li>
                +  <li>B</li>
                   <li>c</li>
                 </ul>
                """))
        #expect(contents("page.list.actual.html") == "<ul>\n  <li>a</li>\n  <li>B</li>\n  <li>c</li>\n</ul>\n")
        // Once the output matches again the stale actual file goes away.
        #expect(verify("<ul><li>a</li><li>b</li><li>c</li></ul>", record: .never, named: "list") == nil)
        #expect(contents("page.list.actual.html") == nil)
    }

    @Test func numbersTheAssertionsOfATest() {
        _ = verify("<p>1</p>", record: .missing)
        _ = verify("<p>2</p>", record: .missing)
        #expect(contents("page.1.html") == "<p>1</p>\n")
        #expect(contents("page.2.html") == "<p>2</p>\n")
    }

    @Test func assertSnapshotRecordsAnIssueOnMismatch() {
        _ = verify("<p>a</p>", record: .missing, named: "issue")
        withKnownIssue {
            assertSnapshot(
                of: "<p>b</p>", as: .html, named: "issue", record: .never, snapshotDirectory: directory,
                testName: "page()")
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("-<p>a</p>") && $0.rawValue.contains("+<p>b</p>") }
        }
    }

    @Test func viewsAndPageBytesSnapshotAsPrettyHTMLBesideTheTestFile() {
        let label = Label(text: "Heat", tagName: "h1")
        assertSnapshot(of: label, as: .html)
        assertSnapshot(of: Array("<!DOCTYPE html><html><body><p>x</p></body></html>".utf8), as: .html)
        let testFile = URL(fileURLWithPath: #filePath)
        let expected = testFile.deletingLastPathComponent()
            .appendingPathComponent(
                "__Snapshots__/SnapshotAssertionTests/viewsAndPageBytesSnapshotAsPrettyHTMLBesideTheTestFile.1.html")
        #expect(FileManager.default.fileExists(atPath: expected.path))
    }
}
