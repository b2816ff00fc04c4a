import Testing
import ViewKit

/// Lists change their rows quietly and report structural changes of their own: taking a tree's changes must still
/// reach every changed view below them, or a screen would stop sending (a view left marked swallows its later
/// changes).
@Suite struct ListDirtyPathTests {
    private struct Item {
        let id: Int
        let title: String
    }

    private static func anyMarked(in view: View) -> Bool {
        view.hasChanges || view.subviews.contains { anyMarked(in: $0) }
    }

    @Test func listUpdatesAndTextChangesLeaveNoMarkOnceTaken() {
        var generator = SeededGenerator(seed: 11)
        let root = View(tagName: "main")
        let section = View(tagName: "section")
        let heading = Label(text: "0", tagName: "h1")
        let list = ListView()
        section.addSubview(heading)
        section.addSubview(list)
        root.addSubview(section)
        let footer = Label(text: "0", tagName: "p")
        root.addSubview(footer)
        func update(_ items: [Item]) {
            list.update(with: items, id: \.id, makeRow: { _ in Label(tagName: "li") }) { row, item in
                (row as! Label).text = item.title
            }
        }
        update([Item(id: 1, title: "one")])
        _ = root.renderHTML(context: RenderContext())

        for round in 0..<600 {
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                switch Int.random(in: 0..<4, using: &generator) {
                case 0:
                    heading.text = "\(round)"
                case 1:
                    footer.text = "\(round)"
                default:
                    let ids = (0..<8).filter { _ in Bool.random(using: &generator) }.shuffled(using: &generator)
                    update(ids.map { Item(id: $0, title: Bool.random(using: &generator) ? "\($0)" : "\($0) \(round)") })
                }
            }
            _ = root.takeChanges(context: RenderContext())
            #expect(!Self.anyMarked(in: root), "round \(round): marks left after taking the changes")
            // A change after that must turn the tree dirty again and be taken.
            footer.text = "after \(round)"
            #expect(root.hasChanges, "round \(round)")
            _ = root.takeChanges(context: RenderContext())
            #expect(!Self.anyMarked(in: root), "round \(round)")
        }
    }
}
