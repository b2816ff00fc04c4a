public import Reactive

/// Feeds a windowed ``TableView`` whose items are too many to hold: it asks for the identifiers of the rows its
/// window shows, and for the place of an item, and holds nothing else.
///
/// Where ``TableViewDiffableDataSource`` keeps a snapshot of every identifier, this data source keeps the total
/// (``numberOfItems``) and the window's identifiers: a list of 100,000 rows costs the screen the rows it shows. The
/// app answers `itemsProvider` with the identifiers of a range of places (a store's range query) and
/// `placeProvider` with an item's place (a count of the items before it), and calls
/// ``reloadData(count:reloading:fromTop:)`` whenever its items may have changed. The table then reads its window
/// again, around the first row the user sees, found by identity, so rows inserted or removed above it move nothing
/// in view; rows that came into the window are inserted, those that left it removed, the items in `reloading` that
/// kept their row configured again, and nothing is sent when nothing the page shows changed.
///
/// ```swift
/// let dataSource = TableViewRangeDataSource<Int>(
///     tableView: table,
///     itemsProvider: { range in movies(in: range).map(\.id) },
///     placeProvider: { id in place(of: id) }
/// ) { table, id in
///     let cell = table.dequeueReusableCell(withIdentifier: "movie")
///     cell.outlet("title", as: Label.self).text = shown[id]?.title ?? ""
///     return cell
/// }
/// dataSource.reloadData(count: total)
/// ```
///
/// Threading: like the table, confined to its screen's scheduler; the providers are called there, synchronously.
/// Holds the table weakly; the table holds its data source.
public final class TableViewRangeDataSource<ItemIdentifier: Hashable & Sendable & LosslessStringConvertible> {
    /// Makes (or configures again) the cell of an item.
    public typealias CellProvider = (TableView, ItemIdentifier) -> View
    /// The identifiers of the items at the places of a range (fewer when the range passes the end).
    public typealias ItemsProvider = (Range<Int>) -> [ItemIdentifier]
    /// The place of an item among all the items, or `nil` when it is not among them.
    public typealias PlaceProvider = (ItemIdentifier) -> Int?

    private weak var tableView: TableView?
    private let itemsProvider: ItemsProvider
    private let placeProvider: PlaceProvider
    private let cellProvider: CellProvider

    /// The number of items, as last given to ``reloadData(count:reloading:fromTop:)``.
    public private(set) var numberOfItems = 0
    /// The identifiers of the rows in the page, in order.
    public private(set) var windowItems: [ItemIdentifier] = []

    /// Creates a data source that fills `tableView` with the cells `cellProvider` makes for the items the providers
    /// give.
    public init(
        tableView: TableView, itemsProvider: @escaping ItemsProvider, placeProvider: @escaping PlaceProvider,
        cellProvider: @escaping CellProvider
    ) {
        self.tableView = tableView
        self.itemsProvider = itemsProvider
        self.placeProvider = placeProvider
        self.cellProvider = cellProvider
    }

    /// Makes the table show `count` items: reads its window again (from the first place with `fromTop`, as after a
    /// new search; else around the first row the user sees) and configures again the items of `reloading` that keep
    /// their rows.
    public func reloadData(count: Int, reloading: Set<ItemIdentifier> = [], fromTop: Bool = false) {
        numberOfItems = max(0, count)
        if fromTop, let tableView {
            tableView.anchor = nil
            tableView.anchorRequest = nil
            tableView.pageStart = 0
        }
        render(reloading: reloading)
    }

    private func render(reloading reloaded: Set<ItemIdentifier>) {
        guard let tableView else { return }
        tableView.windowDidMove = { self.render(reloading: []) }
        let total = numberOfItems
        let (window, anchorPlace, above) = self.window(in: tableView, total: total)
        let items = window.isEmpty ? [] : Array(itemsProvider(window).prefix(window.count))
        windowItems = items
        let windowed = tableView.windowSize != nil
        if let anchorPlace, anchorPlace >= window.lowerBound, anchorPlace - window.lowerBound < items.count {
            tableView.anchor = (.item(items[anchorPlace - window.lowerBound]), above)
        }
        var keys: [TableRowKey] = []
        keys.reserveCapacity(items.count + 2)
        if windowed { keys.append(.topSpacer) }
        for item in items { keys.append(.item(item)) }
        if windowed { keys.append(.bottomSpacer) }
        tableView.show(
            keys, from: window.lowerBound, of: total, reloading: reloaded,
            make: { key in self.makeRow(for: key, in: tableView) },
            configure: { item in self.cellProvider(tableView, item) })
    }

    /// The window to show, the place of the first row the user sees in it (to keep as the anchor) and how many rows
    /// the window keeps above that one: a page asked for, else the place the page asked for (the row it named, when
    /// still there), else the first row the user sees, by identity, else where the window was.
    private func window(in tableView: TableView, total: Int) -> (Range<Int>, anchor: Int?, above: Int) {
        guard let size = tableView.windowSize else { return (0..<total, nil, 0) }
        var first = tableView.windowStart + tableView.rowsBeforeAnchor
        var above = tableView.rowsBeforeAnchor
        // Where the window was, until the page names a row: no anchor is set (rows arriving at the top show).
        var anchors = false
        if let pageStart = tableView.pageStart {
            tableView.pageStart = nil
            tableView.anchorRequest = nil
            let start = total == 0 ? 0 : min(pageStart, (total - 1) / size * size)
            return (start..<min(total, start + size), start, 0)
        }
        if let request = tableView.anchorRequest {
            tableView.anchorRequest = nil
            first = min(request.first, max(0, total - 1))
            anchors = true
            if let key = request.key, let item = ItemIdentifier(key), let found = placeProvider(item) {
                first = found
            }
        } else if let anchor = tableView.anchor, let item = anchor.key.identifier(as: ItemIdentifier.self),
            let found = placeProvider(item)
        {
            first = found
            above = anchor.offset
            anchors = true
        }
        let start = max(0, min(first - above, total - size))
        return (start..<min(total, start + size), anchors ? first : nil, above)
    }

    private func makeRow(for key: TableRowKey, in tableView: TableView) -> View {
        switch key.kind {
        case .spacer:
            return key == .topSpacer ? tableView.spacers.top : tableView.spacers.bottom
        case .item, .header:
            let row = cellProvider(tableView, key.identifier(as: ItemIdentifier.self)!)
            if tableView.windowSize != nil { row.setAttribute("data-key", key.description) }
            return row
        }
    }

    /// The item shown by `cell`, or `nil` when it is not one of the table's cells.
    public func itemIdentifier(for cell: View) -> ItemIdentifier? {
        guard let key = tableView?.key(ofRow: cell), key.kind == .item else { return nil }
        return key.identifier(as: ItemIdentifier.self)
    }

    /// The taps of buttons in cells whose action is `name`, each with the identifier of its cell's item at the time
    /// of the tap. Delivered on the screen's scheduler; never fails.
    public func actions(named name: String) -> Observable<ItemIdentifier> {
        guard let tableView else { return .empty() }
        return tableView.rowActions.asObservable()
            .filter { $0.action == name }
            .compactMap { [weak self] tap in self?.itemIdentifier(for: tap.row) }
    }
}

@available(*, unavailable)
extension TableViewRangeDataSource: Sendable {}
