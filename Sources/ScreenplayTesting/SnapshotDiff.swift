/// Line diffs for snapshot failures, in the unified format (`@@ -3,4 +3,4 @@`, `-` reference,
/// `+` actual, three lines of context).
public enum SnapshotDiff {
    private enum Edit: Equatable {
        case same(String)
        case removed(String)
        case added(String)
    }

    /// `nil` when `reference` equals `actual`, else their unified line diff.
    public static func lineDiff(_ reference: String, _ actual: String) -> String? {
        guard reference != actual else { return nil }
        // A final line break ends the last line; it does not start an empty one.
        func lines(_ text: String) -> [String] {
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.count > 1 && lines.last == "" { lines.removeLast() }
            return lines
        }
        let old = lines(reference)
        let new = lines(actual)
        let edits = self.edits(from: old, to: new)
        return unified(edits, context: 3)
    }

    /// The shortest edit script from `old` to `new` (longest common subsequence, after trimming
    /// the common prefix and suffix so large equal snapshots cost little).
    private static func edits(from old: [String], to new: [String]) -> [Edit] {
        var prefix = 0
        while prefix < old.count && prefix < new.count && old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix && suffix < new.count - prefix
            && old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
        {
            suffix += 1
        }
        let a = Array(old[prefix..<(old.count - suffix)])
        let b = Array(new[prefix..<(new.count - suffix)])
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var edits = old[..<prefix].map(Edit.same)
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            if i < a.count && j < b.count && a[i] == b[j] {
                edits.append(.same(a[i]))
                i += 1
                j += 1
            } else if i < a.count && (j == b.count || table[i + 1][j] >= table[i][j + 1]) {
                edits.append(.removed(a[i]))
                i += 1
            } else {
                edits.append(.added(b[j]))
                j += 1
            }
        }
        edits += old[(old.count - suffix)...].map(Edit.same)
        return edits
    }

    private static func unified(_ edits: [Edit], context: Int) -> String {
        let changed = edits.indices.filter { if case .same = edits[$0] { return false } else { return true } }
        var output: [String] = []
        var hunkStart = 0
        while hunkStart < changed.count {
            var hunkEnd = hunkStart
            while hunkEnd + 1 < changed.count && changed[hunkEnd + 1] - changed[hunkEnd] <= 2 * context {
                hunkEnd += 1
            }
            let from = max(changed[hunkStart] - context, 0)
            let to = min(changed[hunkEnd] + context, edits.count - 1)
            var oldLine = 1
            var newLine = 1
            for edit in edits[..<from] {
                switch edit {
                case .same:
                    oldLine += 1
                    newLine += 1
                case .removed: oldLine += 1
                case .added: newLine += 1
                }
            }
            var body: [String] = []
            var oldCount = 0
            var newCount = 0
            for edit in edits[from...to] {
                switch edit {
                case .same(let line):
                    body.append(" " + line)
                    oldCount += 1
                    newCount += 1
                case .removed(let line):
                    body.append("-" + line)
                    oldCount += 1
                case .added(let line):
                    body.append("+" + line)
                    newCount += 1
                }
            }
            output.append("@@ -\(oldLine),\(oldCount) +\(newLine),\(newCount) @@")
            output += body
            hunkStart = hunkEnd + 1
        }
        return output.joined(separator: "\n")
    }
}
