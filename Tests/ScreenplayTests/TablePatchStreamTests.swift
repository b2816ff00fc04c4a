import Foundation
import Reactive
import Screenplay
import ScreenplayTesting
import Testing
import ViewKit

/// A screen whose table shows the titles of a shared list of (id, title) pairs by identity.
private final class ShelfListViewController: ViewController {
    @Outlet("table") var table: TableView
    let items = BehaviorRelay<[(id: Int, title: String)]>(value: [(1, "One"), (2, "Two"), (3, "Three"), (4, "Four")])
    var dataSource: TableViewDiffableDataSource<Int, Int>?
    private var titles: [Int: String] = [:]

    override func viewDidLoad() {
        let dataSource = TableViewDiffableDataSource<Int, Int>(tableView: table) { [unowned self] table, id in
            let cell = table.dequeueReusableCell(withIdentifier: "row")
            cell.outlet("title", as: Label.self).text = titles[id] ?? ""
            return cell
        }
        self.dataSource = dataSource
        items.bind(onNext: { [unowned self] items in
            let previous = titles
            titles = Dictionary(items.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
            var snapshot = TableSnapshot<Int, Int>()
            snapshot.appendSections([0])
            snapshot.appendItems(items.map(\.id))
            snapshot.reloadItems(items.filter { item in previous[item.id].map { $0 != item.title } ?? false }.map(\.id))
            dataSource.apply(snapshot)
        }).disposed(by: bag)
    }
}

/// The patch stream of a table for each kind of change, as the wire carries it: an insertion, a removal, a move
/// and a reload are each exactly their operation.
@Suite struct TablePatchStreamTests {
    private func makeHarness() throws -> ScreenHarness {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("table-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: fixtureTemplates + "/layout.html", toPath: directory.appendingPathComponent("layout.html").path)
        try Data(
            """
            <section><ul data-view="TableView" data-outlet="table" aria-label="Shelf">
              <li data-cell="row"><span data-outlet="title"></span> <button data-action="select">Open</button></li>
            </ul></section>
            """.utf8
        ).write(to: directory.appendingPathComponent("ShelfList.html"))
        return try ScreenHarness(templates: directory.path) { _ in ShelfListViewController() }
    }

    private func change(_ harness: ScreenHarness, to items: [(id: Int, title: String)]) -> String {
        harness.clearEvents()
        harness.onScreen(ShelfListViewController.self) { $0.items.accept(items) }
        return harness.eventStreamText
    }

    @Test func eachKindOfChangeIsExactlyItsOperationOnTheWire() throws {
        let harness = try makeHarness()
        assertSnapshot(
            of: change(harness, to: [(1, "One"), (2, "Two"), (5, "Five"), (3, "Three"), (4, "Four")]), as: .lines,
            named: "insert")
        assertSnapshot(
            of: change(harness, to: [(1, "One"), (5, "Five"), (3, "Three"), (4, "Four")]), as: .lines, named: "remove")
        assertSnapshot(
            of: change(harness, to: [(5, "Five"), (3, "Three"), (4, "Four"), (1, "One")]), as: .lines, named: "move")
        assertSnapshot(
            of: change(harness, to: [(5, "Five"), (3, "Three"), (4, "Four!"), (1, "One")]), as: .lines,
            named: "reload")
        #expect(change(harness, to: [(5, "Five"), (3, "Three"), (4, "Four!"), (1, "One")]).isEmpty)
    }

    @Test func aRowsButtonReachesTheAppWithItsItemsIdentifier() throws {
        let harness = try makeHarness()
        let selected = harness.onScreen(ShelfListViewController.self) { controller -> ReplayedItems in
            let replayed = ReplayedItems()
            _ = controller.dataSource?.itemSelected.subscribe(onNext: { replayed.append($0) })
            return replayed
        }
        // The rows move: the identity the button posts, not a place, picks the item.
        _ = change(harness, to: [(4, "Four"), (3, "Three"), (2, "Two"), (1, "One")])
        #expect(harness.tap("select", row: 3))
        #expect(selected.all == [3])
        #expect(!harness.tap("select", row: 9))
    }
}

/// Items a subscription on the screen heard, read from the test.
private final class ReplayedItems: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Int] = []
    func append(_ item: Int) { lock.withLock { items.append(item) } }
    var all: [Int] { lock.withLock { items } }
}
