import Testing
import ViewKit

@Suite struct TableWindowTests {
    private func makeTable(count: Int) throws -> (
        root: View, table: TableView, source: TableViewDiffableDataSource<Int, Int>
    ) {
        let (root, table, source) = try Fixtures.movieTable(attributes: #" data-window="20""#)
        apply(Array(0..<count), to: source)
        _ = root.renderHTML(context: RenderContext())
        return (root, table, source)
    }

    private func apply(_ ids: [Int], reloading: [Int] = [], to source: TableViewDiffableDataSource<Int, Int>) {
        var snapshot = TableSnapshot<Int, Int>()
        snapshot.appendSections([0])
        snapshot.appendItems(ids)
        snapshot.reloadItems(reloading)
        source.apply(snapshot)
    }

    private func shownKeys(_ table: TableView) -> [String] {
        table.rows.compactMap { $0.attribute("data-key") }
    }

    private func spacerRows(_ table: TableView) -> (top: String?, bottom: String?) {
        (table.rows.first?.attribute("data-rows"), table.rows.last?.attribute("data-rows"))
    }

    @Test func aWindowedTableHoldsOnlyItsWindowBetweenTwoSpacers() throws {
        let (root, table, _) = try makeTable(count: 100_000)
        #expect(table.rows.count == 22)
        #expect(shownKeys(table) == (0..<20).map(String.init))
        #expect(spacerRows(table).top == "0")
        #expect(spacerRows(table).bottom == "99980")
        #expect(table.totalRowCount == 100_000)
        #expect(root.html.contains(#"data-table-window="20""#))
        #expect(root.html.utf8.count < 4_000)
    }

    @Test func theWindowMovesToWhereThePageAsksAndOnlyTheRowsThatComeAndGoAreSent() throws {
        let (root, table, _) = try makeTable(count: 1_000)
        table.showRows(from: 500, key: "500")
        // Five rows are kept above the first one the user sees.
        #expect(shownKeys(table) == (495..<515).map(String.init))
        #expect(spacerRows(table).top == "495")
        #expect(spacerRows(table).bottom == "485")
        _ = root.takeChanges(context: RenderContext())
        table.showRows(from: 505, key: "505")
        let changes = root.takeChanges(context: RenderContext())
        // Five rows leave at the top, five arrive at the bottom, and the two spacers change: nothing else.
        #expect(changes.filter { if case .remove = $0 { true } else { false } }.count == 5)
        #expect(changes.filter { if case .insert = $0 { true } else { false } }.count == 5)
        #expect(changes.filter { if case .replace = $0 { true } else { false } }.count == 2)
        #expect(changes.count == 12)
        // The end: the last row is there.
        table.showRows(from: 999, key: nil)
        #expect(shownKeys(table).last == "999")
        #expect(shownKeys(table).count == 20)
        #expect(spacerRows(table).bottom == "0")
    }

    @Test func rowsArrivingAboveTheFirstVisibleRowLeaveTheWindowOnIt() throws {
        let (root, table, source) = try makeTable(count: 1_000)
        table.showRows(from: 500, key: "500")
        _ = root.takeChanges(context: RenderContext())
        // Ten items arrive above the window: only the spacers change (the top one's count, the links' pages).
        apply((-10..<0).map { $0 } + Array(0..<1_000), to: source)
        #expect(shownKeys(table) == (495..<515).map(String.init))
        #expect(spacerRows(table).top == "505")
        let changes = root.takeChanges(context: RenderContext())
        let spacers = [table.rows[0], table.rows[table.rows.count - 1]]
        let spacerIDs = Set(spacers.flatMap { [$0.domID, $0.subviews[0].domID] })
        #expect(changes.count <= 3)
        for change in changes {
            guard case .replace(let id, _) = change else {
                Issue.record("expected replacements in the spacers, got \(change)")
                continue
            }
            #expect(spacerIDs.contains(id))
        }
        // A change to a row no one sees sends nothing; to a shown row, that row's text.
        apply((-10..<0).map { $0 } + Array(0..<1_000), reloading: [3], to: source)
        #expect(root.takeChanges(context: RenderContext()).isEmpty)
        apply((-10..<0).map { $0 } + Array(0..<1_000), reloading: [500], to: source)
        #expect(root.takeChanges(context: RenderContext()).count <= 1)
    }

    @Test func aWindowSizeOutOfRangeDoesNotLoad() throws {
        for size in ["5", "500", "many"] {
            let directory = try Fixtures.temporaryTemplates([
                "Screen.html": #"<ul data-view="TableView" data-outlet="t" data-window="\#(size)"></ul>"#
            ])
            #expect(throws: TemplateError.self) {
                _ = try TemplateLibrary(directory: directory, registry: ViewRegistry())
            }
        }
    }
}

@Suite struct TablePageTests {
    @Test func withoutTheScriptTheTableIsPagedWithPlainLinks() throws {
        let (root, table, source) = try Fixtures.movieTable(attributes: #" data-window="20""#)
        table.pageLink = { "/movies?q=a&page=\($0)" }
        table.showPage(3)
        var snapshot = TableSnapshot<Int, Int>()
        snapshot.appendSections([0])
        snapshot.appendItems(Array(0..<50))
        source.apply(snapshot)
        #expect(table.rows.compactMap { $0.attribute("data-key") } == (40..<50).map(String.init))
        #expect(table.currentPage == 3)
        let html = root.html
        #expect(html.contains(#"rel="prev" href="/movies?q=a&amp;page=2">Previous page</a>"#))
        // A link that leads nowhere is hidden (it keeps an address: `rel` needs one).
        #expect(html.contains(#"rel="next" href="/movies?q=a&amp;page=4" hidden>Next page</a>"#))
        table.showPage(1)
        #expect(table.rows.compactMap { $0.attribute("data-key") } == (0..<20).map(String.init))
        let first = root.html
        #expect(first.contains(#"rel="next" href="/movies?q=a&amp;page=2">Next page</a>"#))
        #expect(first.contains(#"rel="prev" href="/movies?q=a&amp;page=1" hidden>Previous page</a>"#))
        // A page past the end shows the last.
        table.showPage(99)
        #expect(table.rows.compactMap { $0.attribute("data-key") }.first == "40")
    }
}
