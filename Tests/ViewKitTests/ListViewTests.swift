import Reactive
import Testing
import ViewKit

@Suite struct ListViewTests {
    private struct Movie {
        var id: Int
        var title: String
    }

    private func makeList(_ movies: [Movie]) -> (root: View, list: ListView) {
        let root = View(tagName: "main")
        let list = ListView()
        root.addSubview(list)
        update(list, movies)
        _ = root.renderHTML(context: RenderContext())
        return (root, list)
    }

    private func update(_ list: ListView, _ movies: [Movie]) {
        list.update(with: movies, id: \.id, makeRow: { _ in Label(tagName: "li") }) { row, movie in
            (row as! Label).text = movie.title
        }
    }

    private func movies(_ ids: [Int]) -> [Movie] { ids.map { Movie(id: $0, title: "Movie \($0)") } }

    private func titles(_ list: ListView) -> [String] { list.rows.map { ($0 as! Label).text } }

    @Test func duplicateIdentitiesShowTheFirstOfEachAndAreReportedInsteadOfTrapping() {
        let screen = ScreenScheduler(label: "duplicates")
        // Reported on the screen's thread, read there too (the scheduler orders the two).
        final class Mistakes: @unchecked Sendable { var all: [String] = [] }
        let mistakes = Mistakes()
        screen.onProgrammerError { error in mistakes.all.append("\(error)") }
        let shown = screen.sync { () -> [String] in
            let (_, list) = makeList([
                Movie(id: 1, title: "One"), Movie(id: 2, title: "Two"), Movie(id: 1, title: "One again"),
            ])
            return titles(list)
        }
        #expect(shown == ["One", "Two"])
        let reported = screen.sync { mistakes.all }
        #expect(reported.count == 1)
        #expect(reported.first?.contains("share an identity ([\"1\"])") == true)
        #expect(reported.first?.contains("Fix: give every item its own identity") == true)
    }

    @Test func keepsTheRowOfEachIdentity() {
        let (_, list) = makeList(movies([1, 2, 3]))
        let second = list.row(for: 2)
        update(list, movies([3, 2, 1]))
        #expect(list.row(for: 2) === second)
        #expect(titles(list) == ["Movie 3", "Movie 2", "Movie 1"])
    }

    @Test func findsARowByItsIdentityAsAnyHashableWould() {
        let (_, list) = makeList(movies([1, 2, 3]))
        #expect(list.row(for: 3) === list.rows[2])
        // Numbers of another type equal the identity, as they do as `AnyHashable`s; other values match nothing.
        #expect(list.row(for: Int8(2)) === list.rows[1])
        #expect(list.row(for: 4) == nil)
        #expect(list.row(for: "2") == nil)
        #expect(ListView().row(for: 1) == nil)
    }

    @Test func insertingARowSendsOnlyThatRow() {
        let (root, list) = makeList(movies([1, 3]))
        update(list, movies([1, 2, 3]))
        let changes = root.takeChanges(context: RenderContext())
        let newRow = list.row(for: 2)!
        #expect(
            changes == [
                .insert(
                    parentID: list.domID, beforeID: list.row(for: 3)!.domID,
                    html: Array(#"<li id="\#(newRow.domID)">Movie 2</li>"#.utf8))
            ])
    }

    @Test func removingARowSendsARemoval() {
        let (root, list) = makeList(movies([1, 2, 3]))
        let removedID = list.row(for: 2)!.domID
        update(list, movies([1, 3]))
        #expect(root.takeChanges(context: RenderContext()) == [.remove(id: removedID)])
    }

    @Test func movingARowSendsTheFewestMoves() {
        let (root, list) = makeList(movies([1, 2, 3, 4, 5]))
        update(list, movies([5, 1, 2, 3, 4]))
        let changes = root.takeChanges(context: RenderContext())
        #expect(
            changes == [.move(id: list.row(for: 5)!.domID, parentID: list.domID, beforeID: list.row(for: 1)!.domID)])
    }

    @Test func changedRowContentIsAReplacementOfThatRow() {
        let (root, list) = makeList(movies([1, 2]))
        var changed = movies([1, 2])
        changed[1].title = "Heat"
        update(list, changed)
        let row = list.row(for: 2)!
        #expect(
            root.takeChanges(context: RenderContext()) == [
                .replace(id: row.domID, html: Array(#"<li id="\#(row.domID)">Heat</li>"#.utf8))
            ])
    }

    /// Applies changes to a model of the client's DOM (ids in order) the way the client would.
    private func apply(_ changes: [ViewChange], to ids: inout [String], listID: String) {
        for change in changes {
            switch change {
            case .insert(let parentID, let beforeID, let html):
                #expect(parentID == listID)
                let text = String(decoding: html, as: UTF8.self)
                let id = String(text.split(separator: "\"")[1])
                ids.insert(id, at: beforeID.flatMap { ids.firstIndex(of: $0) } ?? ids.count)
            case .remove(let id):
                ids.removeAll { $0 == id }
            case .move(let id, _, let beforeID):
                ids.removeAll { $0 == id }
                ids.insert(id, at: beforeID.flatMap { ids.firstIndex(of: $0) } ?? ids.count)
            case .replace:
                break
            }
        }
    }

    @Test(arguments: 0..<200)
    func randomUpdatesLeaveTheClientInTheServersOrder(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed))
        let (root, list) = makeList(movies(Array(0..<Int.random(in: 0...8, using: &generator))))
        var clientIDs = list.rows.map(\.domID)
        for _ in 0..<4 {
            let next = Array((0..<12).filter { _ in Bool.random(using: &generator) }.shuffled(using: &generator))
            update(list, movies(next))
            apply(root.takeChanges(context: RenderContext()), to: &clientIDs, listID: list.domID)
            #expect(clientIDs == list.rows.map(\.domID))
            #expect(titles(list) == next.map { "Movie \($0)" })
        }
    }

    @Test func longestIncreasingRunStaysInPlace() {
        let (root, list) = makeList(movies([1, 2, 3, 4, 5, 6]))
        update(list, movies([2, 3, 4, 5, 6, 1]))
        let changes = root.takeChanges(context: RenderContext())
        #expect(changes.count == 1)
    }
}

/// A small deterministic generator (SplitMix64), so property tests are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
