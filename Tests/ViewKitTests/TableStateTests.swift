import Reactive
import Testing

@testable import ViewKit

/// What a table keeps beside its rows: one that shows every row, and whose cells' actions nobody follows, keeps no
/// window state and no relay for those actions (a detail screen's strip lives as long as its screen); each is made
/// when first used, and works as before.
@Suite struct TableStateTests {
    private func makeTable(windowed: Bool) throws -> (TableView, TableViewDiffableDataSource<Int, Int>) {
        let (_, table, source) = try Fixtures.movieTable(
            attributes: windowed ? #" data-window="20""# : "", cellExtra: #" <button data-action="open">Open</button>"#)
        var snapshot = TableSnapshot<Int, Int>()
        snapshot.appendSections([0])
        snapshot.appendItems(windowed ? Array(1...50) : [1, 2, 3])
        source.apply(snapshot)
        return (table, source)
    }

    private func button(in cell: View) -> Button? {
        cell.liveSubviews.compactMap { $0 as? Button }.first
    }

    @Test func aTableThatShowsEveryRowMakesNoWindowStateAndItsRelayOnlyOnceAsked() throws {
        let (table, source) = try makeTable(windowed: false)
        #expect(table.rows.count == 3)
        #expect(!table.holdsWindowing)
        #expect(!table.holdsRowActions)
        #expect(table.windowSize == nil && table.windowStart == 0 && table.currentPage == 1)
        #expect(table.pageLink(2) == "?page=2")
        table.showPage(2)
        table.showRows(from: 10, key: nil)
        #expect(!table.holdsWindowing)

        var opened: [Int] = []
        let subscription = source.actions(named: "open").subscribe(onNext: { opened.append($0) })
        defer { subscription.dispose() }
        #expect(table.holdsRowActions)
        button(in: table.rows[1])?.sendActions()
        #expect(opened == [2])
    }

    @Test func aTappedButtonMakesTheRelayAndAWindowedTableKeepsItsWindow() throws {
        let (table, source) = try makeTable(windowed: true)
        #expect(table.holdsWindowing)
        #expect(table.windowSize == 20)
        #expect(table.totalRowCount == 50)
        table.showPage(2)
        #expect(table.windowStart == 20)
        #expect(table.currentPage == 2)
        table.pageLink = { "?q=heat&page=\($0)" }
        #expect(table.pageLink(3) == "?q=heat&page=3")

        // A tap before anyone follows the actions makes the relay; a later follower hears the taps after it.
        let rows = table.visibleCells
        button(in: rows[0])?.sendActions()
        #expect(table.holdsRowActions)
        var opened: [Int] = []
        let subscription = source.actions(named: "open").subscribe(onNext: { opened.append($0) })
        defer { subscription.dispose() }
        button(in: rows[1])?.sendActions()
        #expect(opened == [22])
    }
}
