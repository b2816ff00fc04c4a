import Testing
import ViewKit

/// A windowed table tells assistive technology each row's place among all the rows in the page it renders, so a page
/// that runs no script (which pages with plain links) says "item 41 of 50" as the page with the script does.
@Suite struct TableAccessibilityTests {
    @Test func aRenderedWindowGivesEachRowItsPlaceAmongAllTheRows() throws {
        let (root, table, source) = try Fixtures.movieTable(attributes: #" data-window="20" aria-label="Movies""#)
        table.showPage(3)
        var snapshot = TableSnapshot<Int, Int>()
        snapshot.appendSections([0])
        snapshot.appendItems(Array(100..<150))
        source.apply(snapshot)
        let cells = table.visibleCells
        #expect(cells.map { $0.attribute("aria-posinset") } == (41...50).map { String($0) })
        #expect(cells.allSatisfy { $0.attribute("aria-setsize") == "50" })
        #expect(root.html.contains(#"data-key="140" aria-posinset="41" aria-setsize="50""#))
        // The spacers stand for rows; they are no rows themselves.
        #expect(table.rows.first?.attribute("aria-posinset") == nil)
        #expect(table.rows.last?.attribute("aria-posinset") == nil)
    }

    @Test func aTableThatIsNotWindowedLeavesPlacesToTheBrowser() throws {
        let (_, table, source) = try Fixtures.movieTable()
        var snapshot = TableSnapshot<Int, Int>()
        snapshot.appendSections([0])
        snapshot.appendItems([1, 2, 3])
        source.apply(snapshot)
        #expect(table.visibleCells.count == 3)
        #expect(table.visibleCells.allSatisfy { $0.attribute("aria-posinset") == nil })
    }
}
