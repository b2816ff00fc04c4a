import ScreenplayTesting
import Testing

@Suite struct SnapshotDiffTests {
    @Test func equalTextsHaveNoDiff() {
        #expect(SnapshotDiff.lineDiff("a\nb\n", "a\nb\n") == nil)
    }

    @Test func separateChangesMakeSeparateHunksWithThreeLinesOfContext() {
        let reference = (1...20).map(String.init).joined(separator: "\n")
        var lines = (1...20).map(String.init)
        lines[1] = "two"
        lines[17] = "eighteen"
        let diff = SnapshotDiff.lineDiff(reference, lines.joined(separator: "\n"))
        #expect(
            diff == """
                @@ -1,5 +1,5 @@
                 1
                -2
                +two
                 3
                 4
                 5
                @@ -15,6 +15,6 @@
                 15
                 16
                 17
                -18
                +eighteen
                 19
                 20
                """)
    }

    @Test func insertionsAndDeletionsAreMinimal() {
        let diff = SnapshotDiff.lineDiff("a\nb\nc", "a\nx\nb\nc\nd")
        #expect(diff == "@@ -1,3 +1,5 @@\n a\n+x\n b\n c\n+d")
    }
}
