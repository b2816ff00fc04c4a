import Reactive
import Testing
import ViewKit

@Suite struct TableViewTests {
    static let screenTemplate = """
        <main>
        <ul data-view="TableView" data-outlet="table" aria-label="Movies">
          <li data-cell="movie" class="row"><span data-outlet="title"></span> <button data-action="select">Open</button>
            <button data-action="delete">Delete</button></li>
          <li data-cell="note"><em data-outlet="title"></em></li>
        </ul>
        <p data-outlet="title">Screen's own title</p>
        </main>
        """

    private final class Model {
        var titles: [Int: String] = [:]
        var provided = 0
    }

    private func makeTable(_ ids: [Int], model: Model = Model())
        throws -> (root: View, table: TableView, dataSource: TableViewDiffableDataSource<Int, Int>, model: Model)
    {
        let library = try TemplateLibrary(
            directory: try Fixtures.temporaryTemplates(["Screen.html": Self.screenTemplate]), registry: ViewRegistry())
        let root = try library.template(named: "Screen").instantiate()
        let table: TableView = root.outlet("table")
        let dataSource = TableViewDiffableDataSource<Int, Int>(tableView: table) { table, id in
            model.provided += 1
            let cell = table.dequeueReusableCell(withIdentifier: "movie")
            cell.outlet("title", as: Label.self).text = model.titles[id] ?? "Movie \(id)"
            return cell
        }
        apply(ids, to: dataSource)
        _ = root.renderHTML(context: RenderContext())
        return (root, table, dataSource, model)
    }

    private func apply(_ ids: [Int], reloading: [Int] = [], to dataSource: TableViewDiffableDataSource<Int, Int>) {
        var snapshot = TableSnapshot<Int, Int>()
        snapshot.appendSections([0])
        snapshot.appendItems(ids)
        snapshot.reloadItems(reloading)
        dataSource.apply(snapshot)
    }

    private func titles(_ table: TableView) -> [String] {
        table.rows.map { $0.outlet("title", as: Label.self).text }
    }

    @Test func cellsAreMadeFromTheTemplatesPrototypesWithOutletsOfTheirOwn() throws {
        let (root, table, _, _) = try makeTable([3, 1])
        #expect(titles(table) == ["Movie 3", "Movie 1"])
        #expect(table.cellReuseIdentifiers == ["movie", "note"])
        // The screen's outlet is its own paragraph, not a cell's title: the table's cells are a scope of their own.
        #expect(root.outlet("title", as: Label.self).text == "Screen's own title")
        let first = table.rows[0]
        #expect(
            first.html.hasPrefix(
                #"<li id="\#(first.domID)" class="row" data-cell="movie"><span id="#))
        #expect(table.cell(forItem: 1) === table.rows[1])
        #expect(table.cell(forItem: 2) == nil)
    }

    /// A class registered for a reuse identifier replaces the template's prototype of that identifier and only that
    /// one; a class of a new identifier adds it.
    @Test func aRegisteredCellClassReplacesThePrototypeOfItsIdentifierOnly() throws {
        final class NoteCell: View {}
        let (_, table, _, _) = try makeTable([1])
        table.register(NoteCell.self, forCellReuseIdentifier: "movie")
        table.register(NoteCell.self, forCellReuseIdentifier: "extra")
        #expect(table.cellReuseIdentifiers == ["extra", "movie", "note"])
        let movie = table.dequeueReusableCell(withIdentifier: "movie")
        #expect(movie is NoteCell && movie.attribute("data-cell") == "movie")
        let note = table.dequeueReusableCell(withIdentifier: "note")
        #expect(!(note is NoteCell) && note.attribute("data-cell") == "note")
        #expect(table.dequeueReusableCell(withIdentifier: "extra") is NoteCell)
    }

    @Test func cellsAreFoundByTheirItemAsAnyHashableWouldAndRowKeysKeepTheirKind() throws {
        let (_, table, dataSource, _) = try makeTable([1, 2, 3])
        // A number of another type finds the cell of an equal identifier, as `AnyHashable`s compare; other values,
        // and numbers no identifier equals, find none.
        #expect(table.cell(forItem: Int8(2)) === table.rows[1])
        #expect(table.cell(forItem: UInt64(3)) === table.rows[2])
        #expect(table.cell(forItem: "2") == nil)
        #expect(table.cell(forItem: 2.5) == nil)
        #expect(dataSource.itemIdentifier(for: table.rows[2]) == 3)
        // A diff matches rows by their items: a moved row keeps its view and its item.
        let first = table.rows[0]
        apply([3, 1, 2], to: dataSource)
        #expect(table.cell(forItem: 1) === first)
        #expect(dataSource.itemIdentifier(for: first) == 1)
        // A section's header and an item of an equal identifier are two rows, and the item's keeps its view.
        dataSource.sectionHeaderProvider = { _, section in Label(text: "Section \(section)", tagName: "li") }
        var snapshot = TableSnapshot<Int, Int>()
        snapshot.appendSections([1])
        snapshot.appendItems([1])
        dataSource.apply(snapshot)
        #expect(table.rows.count == 2)
        #expect((table.rows[0] as? Label)?.text == "Section 1")
        #expect(table.rows[1] === first)
    }

    @Test func aTableOfAnythingButCellPrototypesDoesNotLoad() throws {
        for content in ["<li>no data-cell</li>", "loose text", #"<li data-cell="a"></li><li data-cell="a"></li>"#] {
            let directory = try Fixtures.temporaryTemplates([
                "Screen.html": #"<ul data-view="TableView" data-outlet="t">"# + content + "</ul>"
            ])
            #expect(throws: TemplateError.self) {
                _ = try TemplateLibrary(directory: directory, registry: ViewRegistry())
            }
        }
    }

    @Test func aMoveIsOneMoveOperationAndNothingElse() throws {
        let (root, table, dataSource, model) = try makeTable([1, 2, 3, 4, 5, 6])
        let provided = model.provided
        let moved = table.cell(forItem: 1)!
        apply([2, 3, 4, 5, 6, 1], to: dataSource)
        #expect(
            root.takeChanges(context: RenderContext()) == [.move(id: moved.domID, parentID: table.domID, beforeID: nil)]
        )
        #expect(model.provided == provided)
        #expect(table.cell(forItem: 1) === moved)
    }

    @Test func aReloadedItemSendsOnlyWhatChangedInItsOwnCell() throws {
        let (root, table, dataSource, model) = try makeTable([1, 2, 3])
        let cell = table.cell(forItem: 2)!
        let title = cell.outlet("title", as: Label.self)
        model.titles[2] = "Heat"
        apply([1, 2, 3], reloading: [2], to: dataSource)
        #expect(table.cell(forItem: 2) === cell)
        #expect(
            root.takeChanges(context: RenderContext()) == [
                .replace(
                    id: title.domID, html: Array(#"<span id="\#(title.domID)" data-outlet="title">Heat</span>"#.utf8))
            ])
        // Without the reload mark, the same snapshot changes nothing.
        model.titles[2] = "Ronin"
        apply([1, 2, 3], to: dataSource)
        #expect(root.takeChanges(context: RenderContext()).isEmpty)
    }

    /// A snapshot that adds an item and reloads it with another: the new row is made once and not configured again,
    /// the kept row of the other is configured again, and a row not reloaded is left as it is.
    @Test func aReloadAlongsideANewItemMakesItsRowOnce() throws {
        let (_, table, dataSource, model) = try makeTable([1, 2])
        let provided = model.provided
        let kept = table.cell(forItem: 2)
        model.titles[1] = "Not reloaded"
        model.titles[2] = "Heat"
        model.titles[4] = "Ronin"
        apply([1, 2, 4], reloading: [2, 4], to: dataSource)
        #expect(model.provided == provided + 2)
        #expect(table.cell(forItem: 2) === kept)
        #expect(titles(table) == ["Movie 1", "Heat", "Ronin"])
    }

    /// A table of one kind of cell makes it by its name, and reports any other name as a table of several does.
    @Test func aTableOfOneCellKindMakesItByNameAndReportsAnyOther() throws {
        let screen = ScreenScheduler(label: "one kind")
        final class Mistakes: @unchecked Sendable { var all: [String] = [] }
        let mistakes = Mistakes()
        screen.onProgrammerError { error in mistakes.all.append("\(error)") }
        let (movie, other) = try screen.sync { () throws -> (String, String) in
            let library = try TemplateLibrary(
                directory: try Fixtures.temporaryTemplates([
                    "Screen.html":
                        #"<main><ul data-view="TableView" data-outlet="t"><li data-cell="movie" class="row">"#
                        + #"<span data-outlet="title"></span></li></ul></main>"#
                ]),
                registry: ViewRegistry())
            let table: TableView = try library.template(named: "Screen").instantiate().outlet("t")
            let movie = table.dequeueReusableCell(withIdentifier: "movie")
            let other = table.dequeueReusableCell(withIdentifier: "movies")
            return (movie.html, other.html)
        }
        #expect(movie.contains(#"class="row" data-cell="movie""#))
        #expect(!other.contains("data-cell"))
        #expect(mistakes.all.count == 1)
        #expect(mistakes.all.first?.contains("no cell is registered as “movies”") == true)
    }

    @Test func aSnapshotWithDuplicatesIsRefusedWithAClearErrorAndTheTableKeepsItsRows() throws {
        let screen = ScreenScheduler(label: "duplicates")
        final class Mistakes: @unchecked Sendable { var all: [String] = [] }
        let mistakes = Mistakes()
        screen.onProgrammerError { error in mistakes.all.append("\(error)") }
        let (shown, changes) = try screen.sync { () throws -> ([String], [ViewChange]) in
            let (root, table, dataSource, _) = try makeTable([1, 2])
            var snapshot = TableSnapshot<Int, Int>()
            snapshot.appendSections([0])
            snapshot.appendItems([7, 8, 7])
            #expect(snapshot.mistakes == ["item 7 is in the snapshot twice"])
            dataSource.apply(snapshot)
            return (titles(table), root.takeChanges(context: RenderContext()))
        }
        #expect(shown == ["Movie 1", "Movie 2"])
        #expect(changes.isEmpty)
        let reported = screen.sync { mistakes.all }
        #expect(reported.count == 1)
        #expect(reported.first?.contains("item 7 is in the snapshot twice") == true)
        #expect(reported.first?.contains("the table is unchanged") == true)
    }

    @Test func snapshotEditsWorkLikeUIKits() {
        var snapshot = TableSnapshot<String, Int>()
        snapshot.appendSections(["a", "b"])
        snapshot.appendItems([1, 2, 3], toSection: "a")
        snapshot.appendItems([4], toSection: "b")
        snapshot.insertItems([9], afterItem: 1)
        snapshot.insertItems([8], beforeItem: 4)
        snapshot.moveItem(3, afterItem: 4)
        snapshot.deleteItems([2])
        #expect(snapshot.itemIdentifiers(inSection: "a") == [1, 9])
        #expect(snapshot.itemIdentifiers(inSection: "b") == [8, 4, 3])
        #expect(snapshot.indexOfItem(4) == 3)
        #expect(snapshot.sectionIdentifier(containingItem: 3) == "b")
        #expect(snapshot.numberOfItems == 5)
        #expect(snapshot.mistakes.isEmpty)
        snapshot.deleteItems([42])
        snapshot.appendItems([1], toSection: "b")
        snapshot.appendSections(["a"])
        #expect(snapshot.mistakes.count == 3)
        #expect(snapshot.itemIdentifiers == [1, 9, 8, 4, 3])
    }

    @Test func sectionHeadersAreRowsOfTheirOwnAndMoveWithTheirSection() throws {
        let (root, table, dataSource, _) = try makeTable([])
        dataSource.sectionHeaderProvider = { table, section in
            let header = table.dequeueReusableCell(withIdentifier: "note")
            header.outlet("title", as: Label.self).text = "Section \(section)"
            return header
        }
        var snapshot = TableSnapshot<Int, Int>()
        snapshot.appendSections([1, 2])
        snapshot.appendItems([10, 11], toSection: 1)
        snapshot.appendItems([20], toSection: 2)
        dataSource.apply(snapshot)
        #expect(titles(table) == ["Section 1", "Movie 10", "Movie 11", "Section 2", "Movie 20"])
        _ = root.takeChanges(context: RenderContext())
        var swapped = TableSnapshot<Int, Int>()
        swapped.appendSections([2, 1])
        swapped.appendItems([20], toSection: 2)
        swapped.appendItems([10, 11], toSection: 1)
        dataSource.apply(swapped)
        #expect(titles(table) == ["Section 2", "Movie 20", "Section 1", "Movie 10", "Movie 11"])
        // Section 2's header and its item move; section 1's rows keep their places.
        let changes = root.takeChanges(context: RenderContext())
        #expect(changes.count == 2)
        #expect(changes.allSatisfy { if case .move = $0 { true } else { false } })
    }

    @Test func buttonsInCellsReachTheAppWithTheItemsIdentifierNeverAnIndex() throws {
        let (_, table, dataSource, _) = try makeTable([1, 2, 3])
        var selected: [Int] = []
        var deleted: [Int] = []
        let bag = DisposeBag()
        dataSource.itemSelected.subscribe(onNext: { selected.append($0) }).disposed(by: bag)
        dataSource.actions(named: "delete").subscribe(onNext: { deleted.append($0) }).disposed(by: bag)
        let cell = table.cell(forItem: 2)!
        // The rows shift: the identity, not the index, is what reaches the app.
        apply([0, 3, 2, 1], to: dataSource)
        cell.firstButton(titled: "Open")?.sendActions()
        table.cell(forItem: 3)!.firstButton(titled: "Delete")?.sendActions()
        #expect(selected == [2])
        #expect(deleted == [3])
        // A cell's buttons post their row's identity, which the screen matches to the row.
        #expect(table.identityDescription(ofRow: cell) == "2")
        #expect(table.row(withIdentityDescription: "2") === cell)
    }

    /// Applies changes to a model of the client's DOM (row ids in order) as the client would, recording which rows
    /// each change touched.
    private func apply(
        _ changes: [ViewChange], to ids: inout [String], touched: inout Set<String>, moved: inout Set<String>,
        table: TableView
    ) {
        for change in changes {
            switch change {
            case .insert(let parentID, let beforeID, let html):
                #expect(parentID == table.domID)
                let text = String(decoding: html, as: UTF8.self)
                let id = String(text.split(separator: "\"")[1])
                ids.insert(id, at: beforeID.flatMap { ids.firstIndex(of: $0) } ?? ids.count)
                touched.insert(id)
            case .remove(let id):
                ids.removeAll { $0 == id }
                touched.insert(id)
            case .move(let id, _, let beforeID):
                ids.removeAll { $0 == id }
                ids.insert(id, at: beforeID.flatMap { ids.firstIndex(of: $0) } ?? ids.count)
                touched.insert(id)
                moved.insert(id)
            case .replace(let id, _):
                // A replacement inside a row touches that row.
                let row = table.rows.first { $0.domID == id || $0.containsView(withDOMID: id) }
                touched.insert(row?.domID ?? id)
            }
        }
    }

    @Test(arguments: 0..<300)
    func randomSnapshotsLeaveTheClientInOrderAndNeverTouchUnchangedRows(seed: Int) throws {
        var generator = SeededGenerator(seed: UInt64(seed) &+ 1000)
        let (root, table, dataSource, model) = try makeTable(
            Array(0..<Int.random(in: 0...10, using: &generator)).shuffled(using: &generator))
        var clientIDs = table.rows.map(\.domID)
        for round in 0..<5 {
            let before = dataSource.snapshot().itemIdentifiers
            let next = Array((0..<16).filter { _ in Int.random(in: 0..<3, using: &generator) > 0 })
                .shuffled(using: &generator)
            let kept = next.filter(before.contains)
            let reloads = kept.filter { _ in Int.random(in: 0..<5, using: &generator) == 0 }
            for id in reloads { model.titles[id] = "Movie \(id) r\(round)" }
            let rowsBefore = Dictionary(uniqueKeysWithValues: before.map { ($0, table.cell(forItem: $0)!.domID) })
            apply(next, reloading: reloads, to: dataSource)
            var touched = Set<String>()
            var movedIDs = Set<String>()
            apply(
                root.takeChanges(context: RenderContext()), to: &clientIDs, touched: &touched, moved: &movedIDs,
                table: table)
            #expect(clientIDs == table.rows.map(\.domID))
            #expect(titles(table) == next.map { model.titles[$0] ?? "Movie \($0)" })
            // Moves are the fewest: the kept rows off one longest run of unchanged order.
            let oldPositions = kept.map { before.firstIndex(of: $0)! }
            let moved = kept.filter { movedIDs.contains(rowsBefore[$0]!) }
            #expect(movedIDs.count == moved.count)
            #expect(moved.count == kept.count - Self.longestIncreasingRunLength(oldPositions))
            // Every row touched is inserted, removed, moved or reloaded: the others are left alone.
            for id in kept where !reloads.contains(id) && !moved.contains(id) {
                #expect(!touched.contains(rowsBefore[id]!))
            }
        }
    }

    static func longestIncreasingRunLength(_ values: [Int]) -> Int {
        var tails: [Int] = []
        for value in values {
            if let index = tails.firstIndex(where: { $0 >= value }) {
                tails[index] = value
            } else {
                tails.append(value)
            }
        }
        return tails.count
    }
}

extension View {
    fileprivate func firstButton(titled title: String) -> Button? {
        if let button = self as? Button, button.title == title { return button }
        for view in subviews {
            if let found = view.firstButton(titled: title) { return found }
        }
        return nil
    }

    fileprivate func containsView(withDOMID id: String) -> Bool {
        subviews.contains { $0.domID == id || $0.containsView(withDOMID: id) }
    }
}
