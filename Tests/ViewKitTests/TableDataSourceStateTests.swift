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

    /// A small snapshot makes no item set: it finds its items in its sections. One that grows past the small size
    /// makes the set from its sections, and both answer as a snapshot with its set does: duplicates across the
    /// change, within one append, and look-ups of items it has and has not.
    @Test func aSmallSnapshotFindsItsItemsWithoutASet() {
        var small = TableSnapshot<Int, Int>()
        small.appendSections([0, 1])
        small.appendItems([3, 1], toSection: 0)
        small.appendItems([2, 2, 1], toSection: 1)
        #expect(!small.hasItemSet && small.itemSet.isEmpty)
        #expect(small.mistakes == ["item 2 is in the snapshot twice", "item 1 is in the snapshot twice"])
        #expect(small.numberOfItems == 3 && small.indexOfItem(2) == 2 && small.indexOfItem(9) == nil)
        #expect(small.sectionIdentifier(containingItem: 2) == 1 && small.sectionIdentifier(containingItem: 9) == nil)
        small.reloadItems([3, 9])
        #expect(small.reloadedItemIdentifiers == [3] && small.mistakes.count == 3)
        small.moveItem(3, afterItem: 2)
        #expect(small.itemIdentifiers == [1, 2, 3])

        let limit = TableSnapshot<Int, Int>.smallItemCount
        var growing = TableSnapshot<Int, Int>()
        growing.appendSections([0])
        growing.appendItems(Array(0..<limit))
        #expect(!growing.hasItemSet)
        growing.appendItems([limit, 0, limit + 1])
        #expect(growing.hasItemSet && growing.itemSet == Set(0...limit + 1))
        #expect(growing.mistakes == ["item 0 is in the snapshot twice"])
        #expect(growing.numberOfItems == limit + 2 && growing.indexOfItem(limit + 1) == limit + 1)
        growing.deleteItems(Array(2...limit + 1))
        #expect(growing.numberOfItems == 2 && growing.itemIdentifiers == [0, 1])
        growing.appendItems([5, 1])
        #expect(growing.itemIdentifiers == [0, 1, 5] && growing.mistakes.last == "item 1 is in the snapshot twice")
    }
}
