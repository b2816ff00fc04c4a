import Testing
import ViewKit

/// A windowed table fed by range: it asks for its window's items only, and keeps the first visible row in place.
@Suite struct TableRangeDataSourceTests {
    /// The items, in order, as a store would hold them, and the ranges the data source asked for.
    final class Items {
        var ids: [Int]
        var asked: [Range<Int>] = []
        var titles: [Int: String] = [:]
        init(_ ids: [Int]) { self.ids = ids }
    }

    private func makeTable(_ items: Items) throws -> (
        root: View, table: TableView, source: TableViewRangeDataSource<Int>
    ) {
        let library = try TemplateLibrary(
            directory: try Fixtures.temporaryTemplates([
                "Screen.html": """
                <main><ul data-view="TableView" data-outlet="table" data-window="20">
                  <li data-cell="movie"><span data-outlet="title"></span></li>
                </ul></main>
                """
            ]), registry: ViewRegistry())
        let root = try library.template(named: "Screen").instantiate()
        let table: TableView = root.outlet("table")
        let source = TableViewRangeDataSource<Int>(
            tableView: table,
            itemsProvider: { range in
                items.asked.append(range)
                return Array(items.ids[min(range.lowerBound, items.ids.count)..<min(range.upperBound, items.ids.count)])
            },
            placeProvider: { id in items.ids.firstIndex(of: id) }
        ) { table, id in
            let cell = table.dequeueReusableCell(withIdentifier: "movie")
            cell.outlet("title", as: Label.self).text = items.titles[id] ?? "Movie \(id)"
            return cell
        }
        source.reloadData(count: items.ids.count)
        _ = root.renderHTML(context: RenderContext())
        return (root, table, source)
    }

    private func shownKeys(_ table: TableView) -> [String] {
        table.rows.compactMap { $0.attribute("data-key") }
    }

    private func spacerRows(_ table: TableView) -> (top: String?, bottom: String?) {
        (table.rows.first?.attribute("data-rows"), table.rows.last?.attribute("data-rows"))
    }

    @Test func asksOnlyForItsWindowAndHoldsOnlyIt() throws {
        let items = Items(Array(0..<100_000))
        let (root, table, source) = try makeTable(items)
        #expect(items.asked == [0..<20])
        #expect(shownKeys(table) == (0..<20).map(String.init))
        #expect(spacerRows(table).bottom == "99980")
        #expect(source.windowItems.count == 20)
        #expect(root.html.utf8.count < 4_000)
        table.showRows(from: 99_999, key: nil)
        #expect(items.asked.last == 99_980..<100_000)
        #expect(shownKeys(table).last == "99999")
    }

    @Test func rowsInsertedOrRemovedAboveTheFirstVisibleRowLeaveTheWindowOnIt() throws {
        let items = Items(Array(0..<1_000))
        let (root, table, source) = try makeTable(items)
        table.showRows(from: 500, key: "500")
        #expect(shownKeys(table) == (495..<515).map(String.init))
        _ = root.takeChanges(context: RenderContext())
        items.ids.insert(-1, at: 10)
        source.reloadData(count: items.ids.count)
        // The window holds the same rows: only the spacers' counts change.
        #expect(shownKeys(table) == (495..<515).map(String.init))
        #expect(spacerRows(table).top == "496")
        let changes = root.takeChanges(context: RenderContext())
        #expect(changes.count == 1)
        items.ids.removeAll { $0 == 3 || $0 == -1 }
        source.reloadData(count: items.ids.count)
        #expect(shownKeys(table) == (495..<515).map(String.init))
        #expect(spacerRows(table).top == "494")
        #expect(spacerRows(table).bottom == "485")
    }

    @Test func aChangeOutOfTheWindowSendsNothingAndOneInItIsOneRow() throws {
        let items = Items(Array(0..<1_000))
        let (root, table, source) = try makeTable(items)
        _ = root.takeChanges(context: RenderContext())
        items.titles[700] = "Changed far away"
        source.reloadData(count: items.ids.count, reloading: [700])
        #expect(root.takeChanges(context: RenderContext()).isEmpty)
        items.titles[3] = "Changed in view"
        source.reloadData(count: items.ids.count, reloading: [3])
        let changes = root.takeChanges(context: RenderContext())
        #expect(changes.count == 1)
        #expect(root.html.contains("Changed in view"))
        // An item inserted in view is one insertion (and the bottom spacer's count).
        items.ids.insert(-5, at: 2)
        source.reloadData(count: items.ids.count)
        let inserted = root.takeChanges(context: RenderContext())
        #expect(inserted.filter { if case .insert = $0 { true } else { false } }.count == 1)
        #expect(shownKeys(table).prefix(3) == ["0", "1", "-5"])
    }

    @Test func aNewSearchStartsFromTheTop() throws {
        let items = Items(Array(0..<1_000))
        let (_, table, source) = try makeTable(items)
        table.showRows(from: 500, key: "500")
        items.ids = Array(stride(from: 0, to: 1_000, by: 2))
        source.reloadData(count: items.ids.count, fromTop: true)
        #expect(shownKeys(table).first == "0")
        #expect(spacerRows(table).top == "0")
    }
}
