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
/// Threading: like the table, confined to its screen's scheduler. Holds the table weakly; a windowed table holds
/// its data source.
public final class TableViewDiffableDataSource<
    SectionIdentifier: Hashable & Sendable, ItemIdentifier: Hashable & Sendable
> {
    /// Makes (or configures again) the cell of an item.
    public typealias CellProvider = (TableView, ItemIdentifier) -> View
    /// Makes the header row of a section, or `nil` for none.
    public typealias SectionHeaderProvider = (TableView, SectionIdentifier) -> View?

    @usableFromInline weak var tableView: TableView?
    @usableFromInline let cellProvider: CellProvider
    /// Makes each section's header row; none when `nil` (the default).
    public var sectionHeaderProvider: SectionHeaderProvider?
    /// The applied snapshot's sections and items, without its item set (``TableSnapshot/keepSectionsAlone()``): a
    /// live screen keeps its tables' data sources for its whole life, and the set is needed only to build one.
    @usableFromInline var current = TableSnapshot<SectionIdentifier, ItemIdentifier>()

    /// Creates a data source that fills `tableView` with the cells `cellProvider` makes.
    public init(tableView: TableView, cellProvider: @escaping CellProvider) {
        self.tableView = tableView
        self.cellProvider = cellProvider
    }

    /// The snapshot the table shows (without reload marks).
    public func snapshot() -> TableSnapshot<SectionIdentifier, ItemIdentifier> {
        current.restoringItemSet()
    }

    /// Makes the table show `snapshot`: inserts, removes and moves rows by identity and configures again the
    /// items it reloads. A snapshot with ``TableSnapshot/mistakes`` is refused: the mistakes are reported as a
    /// ``ProgrammerError`` (the screen fails) and the table keeps what it shows. `animatingDifferences` is accepted
    /// for UIKit's sake; the page applies the changes as they come.
    // Inlined into the app's module with `render` and `makeRow`, so that they are specialised for the app's
    // identifier types (Benchmarks/History/40); the rows' diff is the table's, which knows no identifier type.
    @inlinable
    public func apply(
        _ snapshot: TableSnapshot<SectionIdentifier, ItemIdentifier>, animatingDifferences: Bool = true
    ) {
        guard tableView != nil else { return }
        guard snapshot.mistakeList.isEmpty else {
            Self.reportMistakes(snapshot.mistakeList)
            return
        }
        var kept = snapshot
        kept.keepSectionsAlone()
        current = kept
        render(reloading: snapshot.reloadSet)
    }

    /// Reports the mistakes of a snapshot given to ``apply(_:animatingDifferences:)``.
    @usableFromInline
    static func reportMistakes(_ mistakes: [String]) {
        ProgrammerErrors.report(
            ProgrammerError(
                mistake: "TableViewDiffableDataSource.apply was given a snapshot with mistakes ("
                    + mistakes.prefix(5).joined(separator: "; ")
                    + "); the table is unchanged.",
                fix: "give every section and every item its own identifier (a database id, not a title or a "
                    + "position), and name only items the snapshot has."))
    }

    /// Makes the table's rows those of the current snapshot (in a windowed table, those of its window), and
    /// configures again the items of `reloading` that kept their rows.
    @inlinable
    func render(reloading reloaded: Set<ItemIdentifier>) {
        guard let tableView else { return }
        // The table keeps the data source that last fed it (which holds the table weakly): a window moves with no
        // app code holding the data source.
        tableView.windowDidMove = { self.render(reloading: []) }
        var keys: [TableRowKey] = []
        let hasHeaders = sectionHeaderProvider != nil
        let total = current.itemCountInSections + (hasHeaders ? current.numberOfSections : 0)
        var window = 0..<total
        if let size = tableView.windowSize {
            window = self.window(of: size, in: tableView, total: total)
            keys.reserveCapacity(window.count + 2)
            keys.append(.topSpacer)
        } else {
            keys.reserveCapacity(total)
        }
        // The rows of the window, walked without making keys for the rows outside it.
        var place = 0
        sections: for index in current.sectionList.indices {
            let items = current.sectionItems[index]
            if hasHeaders {
                if window.contains(place) { keys.append(.header(current.sectionList[index])) }
                place += 1
            }
            let from = max(0, window.lowerBound - place)
            let to = min(items.count, window.upperBound - place)
            if from < to { for item in items[from..<to] { keys.append(.item(item)) } }
            place += items.count
            if place >= window.upperBound { break sections }
        }
        if tableView.windowSize != nil { keys.append(.bottomSpacer) }
        tableView.show(
            keys, from: window.lowerBound, of: total, reloading: reloaded,
            make: { key in self.makeRow(for: key, in: tableView) },
            configure: { item in self.cellProvider(tableView, item) })
    }

    /// The window of a windowed table: around the row the page last asked for, else around the first row the user
    /// sees (by identity, so rows arriving above it leave it where it was), else where it was.
    @usableFromInline
    func window(of size: Int, in tableView: TableView, total: Int) -> Range<Int> {
        // The first row the user sees, and how many rows the window keeps above it.
        var first = tableView.windowStart + tableView.rowsBeforeAnchor
        var above = tableView.rowsBeforeAnchor
        if let pageStart = tableView.pageStart {
            tableView.pageStart = nil
            tableView.anchorRequest = nil
            // A page starts where the page's links say, the last page included (it may hold fewer rows).
            let start = total == 0 ? 0 : min(pageStart, (total - 1) / size * size)
            tableView.anchor = key(at: start).map { ($0, 0) }
            return start..<min(total, start + size)
        }
        if let request = tableView.anchorRequest {
            tableView.anchorRequest = nil
            first = min(request.first, max(0, total - 1))
            // The key the page named, where the page said or elsewhere in the list; else the row at that place.
            if let key = request.key, let found = place(ofKeyDescribed: key, near: first) {
                first = found
            }
            tableView.anchor = key(at: first).map { ($0, above) }
        } else if let anchor = tableView.anchor, let found = place(of: anchor.key) {
            first = found
            above = anchor.offset
        }
        let start = max(0, min(first - above, total - size))
        return start..<min(total, start + size)
    }

    /// The key of the row at `place` among all the rows.
    private func key(at place: Int) -> TableRowKey? {
        var offset = 0
        let hasHeaders = sectionHeaderProvider != nil
        for (section, items) in current.sections {
            if hasHeaders {
                if offset == place { return .header(section) }
                offset += 1
            }
            if place < offset + items.count { return .item(items[place - offset]) }
            offset += items.count
        }
        return nil
    }

    /// The place of the row `key` among all the rows.
    private func place(of key: TableRowKey) -> Int? {
        var offset = 0
        let hasHeaders = sectionHeaderProvider != nil
        for (section, items) in current.sections {
            if hasHeaders {
                if key.kind == .header, key == .header(section) { return offset }
                offset += 1
            }
            if key.kind == .item, let item = key.identifier(as: ItemIdentifier.self),
                let index = items.firstIndex(of: item)
            {
                return offset + index
            }
            offset += items.count
        }
        return nil
    }

    /// The place of the row whose identity reads `description`: `near` when it is there (the page's count is
    /// usually right), else the first such row.
    private func place(ofKeyDescribed description: String, near: Int) -> Int? {
        if key(at: near)?.description == description { return near }
        var offset = 0
        let hasHeaders = sectionHeaderProvider != nil
        for (section, items) in current.sections {
            if hasHeaders {
                if TableRowKey.header(section).description == description { return offset }
                offset += 1
            }
            if let index = items.firstIndex(where: { String(describing: $0) == description }) { return offset + index }
            offset += items.count
        }
        return nil
    }

    @inlinable
    func makeRow(for key: TableRowKey, in tableView: TableView) -> View {
        let row: View
        switch key.kind {
        case .item:
            row = cellProvider(tableView, key.identifier(as: ItemIdentifier.self)!)
        case .header:
            let section = key.identifier(as: SectionIdentifier.self)!
            row = sectionHeaderProvider?(tableView, section) ?? View(tagName: tableView.rowTagName)
        case .spacer:
            return key == .topSpacer ? tableView.spacers.top : tableView.spacers.bottom
        }
        // The row's identity, which the page's script names when it asks for rows around it.
        if tableView.windowSize != nil { row.setAttribute("data-key", key.description) }
        return row
    }

    /// The item shown by `cell`, or `nil` when it is not one of the table's cells.
    public func itemIdentifier(for cell: View) -> ItemIdentifier? {
        guard let key = tableView?.key(ofRow: cell), key.kind == .item else { return nil }
        return key.identifier(as: ItemIdentifier.self)
    }

    /// The item at `index` among all the items (section after section), or `nil`.
    public func itemIdentifier(at index: Int) -> ItemIdentifier? {
        let items = current.itemIdentifiers
        return items.indices.contains(index) ? items[index] : nil
    }

    /// The place of `item` among all the items, or `nil`.
    public func index(for item: ItemIdentifier) -> Int? {
        current.placeOfItem(item)
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
