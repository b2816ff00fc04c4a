public import Reactive

/// Feeds a ``TableView`` from snapshots of identifiers, like UIKit's `UITableViewDiffableDataSource`.
///
/// Apply a ``TableSnapshot``: the table compares it with the one it shows, by identity, and changes only what
/// differs. A new item gets a row from the cell provider, an item gone loses its row, items that changed places
/// move (the fewest moves: the rows of a longest run that kept its order stay put), and items the snapshot reloads
/// are configured again. The next patch carries exactly those operations, keyed by the rows' DOM ids — a moved row
/// is a move, not a removal and an insertion, and a reloaded row sends only what changed in it.
///
/// The cell provider makes an item's cell: it dequeues one from the table's prototypes and configures it. Its item
/// is an identifier, never an index that may be stale by the time a tap arrives; buttons in cells reach the app
/// the same way (``actions(named:)``, ``itemSelected``).
///
/// ```swift
/// let dataSource = TableViewDiffableDataSource<Int, Movie.ID>(tableView: table) { table, id in
///     let cell = table.dequeueReusableCell(withIdentifier: "movie")
///     cell.outlet("title", as: Label.self).text = movies[id]?.title ?? ""
///     return cell
/// }
/// var snapshot = TableSnapshot<Int, Movie.ID>()
/// snapshot.appendSections([0])
/// snapshot.appendItems(movies.keys.sorted())
/// dataSource.apply(snapshot)
/// ```
///
/// Threading: like the table, confined to its screen's scheduler. Holds the table weakly.
public final class TableViewDiffableDataSource<
    SectionIdentifier: Hashable & Sendable, ItemIdentifier: Hashable & Sendable
> {
    /// Makes (or configures again) the cell of an item.
    public typealias CellProvider = (TableView, ItemIdentifier) -> View
    /// Makes the header row of a section, or `nil` for none.
    public typealias SectionHeaderProvider = (TableView, SectionIdentifier) -> View?

    private weak var tableView: TableView?
    private let cellProvider: CellProvider
    /// Makes each section's header row; none when `nil` (the default).
    public var sectionHeaderProvider: SectionHeaderProvider?
    private var current = TableSnapshot<SectionIdentifier, ItemIdentifier>()

    /// Creates a data source that fills `tableView` with the cells `cellProvider` makes.
    public init(tableView: TableView, cellProvider: @escaping CellProvider) {
        self.tableView = tableView
        self.cellProvider = cellProvider
    }

    /// The snapshot the table shows (without reload marks).
    public func snapshot() -> TableSnapshot<SectionIdentifier, ItemIdentifier> {
        current
    }

    /// Makes the table show `snapshot`: inserts, removes and moves rows by identity and configures again the
    /// items it reloads. A snapshot with ``TableSnapshot/mistakes`` is refused: the mistakes are reported as a
    /// ``ProgrammerError`` (the screen fails) and the table keeps what it shows. `animatingDifferences` is accepted
    /// for UIKit's sake; the page applies the changes as they come.
    public func apply(
        _ snapshot: TableSnapshot<SectionIdentifier, ItemIdentifier>, animatingDifferences: Bool = true
    ) {
        guard let tableView else { return }
        guard snapshot.mistakes.isEmpty else {
            ProgrammerErrors.report(
                ProgrammerError(
                    mistake: "TableViewDiffableDataSource.apply was given a snapshot with mistakes ("
                        + snapshot.mistakes.prefix(5).joined(separator: "; ")
                        + "); the table is unchanged.",
                    fix: "give every section and every item its own identifier (a database id, not a title or a "
                        + "position), and name only items the snapshot has."))
            return
        }
        var keys: [TableRowKey] = []
        keys.reserveCapacity(snapshot.numberOfItems + (sectionHeaderProvider == nil ? 0 : snapshot.numberOfSections))
        for (section, items) in snapshot.sections {
            if sectionHeaderProvider != nil { keys.append(.header(AnyHashable(section))) }
            for item in items { keys.append(.item(AnyHashable(item))) }
        }
        let reloaded = snapshot.reloadedItemIdentifiers
        var made = Set<Int>()
        let rows = tableView.reconcile(TypedRowIdentities(keys)) { index in
            made.insert(index)
            return self.makeRow(for: keys[index], in: tableView)
        }
        // Items reloaded that kept their row: the provider configures them again, in their cell when it dequeues.
        if !reloaded.isEmpty {
            for index in rows.indices where !made.contains(index) {
                guard let item = keys[index].id.base as? ItemIdentifier, keys[index].kind == .item,
                    reloaded.contains(item)
                else { continue }
                let row = rows[index]
                tableView.reusableRow = tableView.reuseIdentifier(of: row).map { (row, $0) }
                let cell = cellProvider(tableView, item)
                tableView.reusableRow = nil
                if cell !== row {
                    tableView.replaceRow(at: index, with: cell)
                }
            }
        }
        tableView.finishUpdate()
        var kept = snapshot
        kept.clearReloads()
        current = kept
    }

    private func makeRow(for key: TableRowKey, in tableView: TableView) -> View {
        switch key.kind {
        case .item:
            return cellProvider(tableView, key.id.base as! ItemIdentifier)
        case .header:
            let section = key.id.base as! SectionIdentifier
            return sectionHeaderProvider?(tableView, section) ?? View(tagName: "li")
        }
    }

    /// The item shown by `cell`, or `nil` when it is not one of the table's cells.
    public func itemIdentifier(for cell: View) -> ItemIdentifier? {
        guard let key = tableView?.key(ofRow: cell), key.kind == .item else { return nil }
        return key.id.base as? ItemIdentifier
    }

    /// The item at `index` among all the items (section after section), or `nil`.
    public func itemIdentifier(at index: Int) -> ItemIdentifier? {
        let items = current.itemIdentifiers
        return items.indices.contains(index) ? items[index] : nil
    }

    /// The place of `item` among all the items, or `nil`.
    public func index(for item: ItemIdentifier) -> Int? {
        current.indexOfItem(item)
    }

    /// The taps of buttons in cells whose action is `name`, each with the identifier of its cell's item at the time
    /// of the tap. Delivered on the screen's scheduler; never fails.
    ///
    /// ```swift
    /// dataSource.actions(named: "delete").bind(onNext: driver.delete)
    /// ```
    public func actions(named name: String) -> Observable<ItemIdentifier> {
        guard let tableView else { return .empty() }
        return tableView.rowActions.asObservable()
            .filter { $0.action == name }
            .compactMap { [weak self] tap in self?.itemIdentifier(for: tap.row) }
    }

    /// The items whose select button was tapped (a button in the cell whose action is the table's
    /// ``TableView/selectActionName``): UIKit's `tableView(_:didSelectRowAt:)`, by identifier.
    public var itemSelected: Observable<ItemIdentifier> {
        actions(named: tableView?.selectActionName ?? "select")
    }
}

@available(*, unavailable)
extension TableViewDiffableDataSource: Sendable {}
