import Testing

@testable import ViewKit

/// What a diffable data source keeps of the snapshot it applied, for as long as its screen lives.
@Suite struct TableDataSourceStateTests {
    /// The data source keeps the sections and their items, not the item set that building a snapshot needs (nor the
    /// reload marks); it answers from the sections, and hands out snapshots whole, their set made again.
    @Test func aDataSourceKeepsTheItemsWithoutTheirSetAndHandsOutWholeSnapshots() throws {
        let (root, table, source) = try Fixtures.movieTable()
        var snapshot = TableSnapshot<Int, Int>()
        snapshot.appendSections([0, 1])
        snapshot.appendItems([3, 1], toSection: 0)
        snapshot.appendItems([2], toSection: 1)
        snapshot.reloadItems([1])
        source.apply(snapshot)
        _ = root.renderHTML(context: RenderContext())
        #expect(source.current.itemSet.isEmpty && source.current.reloadSet.isEmpty)
        #expect(table.rows.map { $0.outlet("title", as: Label.self).text } == ["Movie 3", "Movie 1", "Movie 2"])
        #expect(source.index(for: 2) == 2 && source.index(for: 9) == nil)
        #expect(source.itemIdentifier(at: 1) == 1)

        var handed = source.snapshot()
        #expect(handed.numberOfItems == 3 && handed.indexOfItem(2) == 2)
        #expect(handed.sectionIdentifier(containingItem: 1) == 0 && handed.reloadedItemIdentifiers.isEmpty)
        handed.appendItems([3], toSection: 1)
        #expect(handed.mistakes == ["item 3 is in the snapshot twice"])
        handed = source.snapshot()
        handed.deleteItems([1])
        source.apply(handed)
        #expect(table.rows.map { $0.outlet("title", as: Label.self).text } == ["Movie 3", "Movie 2"])
        #expect(source.current.itemSet.isEmpty)
    }
}
