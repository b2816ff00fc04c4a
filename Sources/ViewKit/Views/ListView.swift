/// A view whose rows are made from data with stable identity (like a `UITableView` with a diffable
/// data source).
///
/// `update(with:id:makeRow:configureRow:)` keeps the row of each identity: new items get a new
/// row, items gone lose theirs, and reordering moves rows. A patch then carries only the row
/// insertions, removals and moves (the fewest moves: rows on a longest increasing run stay put),
/// plus replacements of rows whose content changed — never the whole list.
///
/// ```swift
/// let list: ListView = viewController.view.outlet("castList")
/// list.update(with: cast, id: \.personID, makeRow: { _ in Label(tagName: "li") }) { row, member in
///     (row as? Label)?.text = member.name
/// }
/// ```
public final class ListView: View {
    private var rowIDs: [AnyHashable] = []
    private var pendingChanges: [PendingChange] = []

    private enum PendingChange {
        case insert(row: View, beforeID: String?)
        case remove(id: String)
        case move(id: String, beforeID: String?)
    }

    /// Creates an empty list rendered as `<tagName>` (`<ul>` by default).
    public required init(tagName: String = "ul") {
        super.init(tagName: tagName)
    }

    /// The row views, in order.
    public var rows: [View] { subviews }

    /// The row showing the item with identity `id`, if any.
    public func row(for id: some Hashable) -> View? {
        rowIDs.firstIndex(of: AnyHashable(id)).map { subviews[$0] }
    }

    /// Makes the rows match `items`: creates rows for new identities with `makeRow`, removes rows
    /// of identities no longer present, moves rows into the new order, and calls `configureRow` for
    /// every item with its row. Identities must be unique.
    public func update<Item, ID: Hashable>(
        with items: [Item], id: (Item) -> ID, makeRow: (Item) -> View, configureRow: (View, Item) -> Void
    ) {
        let newIDs = items.map { AnyHashable(id($0)) }
        precondition(Set(newIDs).count == newIDs.count, "ListView.update: identities must be unique")
        let recordChanges = !needsRender
        let newIDSet = Set(newIDs)

        // Removals, back to front so indices stay valid.
        for index in rowIDs.indices.reversed() where !newIDSet.contains(rowIDs[index]) {
            if recordChanges { pendingChanges.append(.remove(id: subviews[index].domID)) }
            rowIDs.remove(at: index)
            detachSubviewQuietly(at: index)
        }

        // Rows that stay, and which of them keep their place (a longest increasing run).
        var oldIndex: [AnyHashable: Int] = [:]
        for (index, rowID) in rowIDs.enumerated() { oldIndex[rowID] = index }
        let keptOldIndices = newIDs.compactMap { oldIndex[$0] }
        let staying = Set(Self.longestIncreasingSubsequence(keptOldIndices))
        let oldRows = subviews

        // Walk the new order from the end, so each row goes in before its (already placed) successor.
        var finalRows = [View?](repeating: nil, count: items.count)
        var successor: View?
        for index in items.indices.reversed() {
            let row: View
            if let old = oldIndex[newIDs[index]] {
                row = oldRows[old]
                if !staying.contains(old) {
                    if recordChanges { pendingChanges.append(.move(id: row.domID, beforeID: successor?.domID)) }
                    reorderSubviewsQuietly(subviews.filter { $0 !== row })
                    let position = successor.flatMap { next in subviews.firstIndex { $0 === next } } ?? subviews.count
                    var reordered = subviews
                    reordered.insert(row, at: position)
                    reorderSubviewsQuietly(reordered)
                }
            } else {
                row = makeRow(items[index])
                let position = successor.flatMap { next in subviews.firstIndex { $0 === next } } ?? subviews.count
                attachSubviewQuietly(row, at: position)
                if recordChanges { pendingChanges.append(.insert(row: row, beforeID: successor?.domID)) }
            }
            finalRows[index] = row
            successor = row
        }
        rowIDs = newIDs
        for (index, item) in items.enumerated() { configureRow(finalRows[index]!, item) }
        if !pendingChanges.isEmpty { markDirtyDescendant() }
    }

    /// Removes every row.
    public func removeAllRows() {
        update(with: [Int](), id: { $0 }, makeRow: { _ in View() }, configureRow: { _, _ in })
    }

    override func collectStructuralChanges(into changes: inout [ViewChange], context: RenderContext) {
        let parentID = domID
        let pending = pendingChanges
        pendingChanges = []
        for change in pending {
            switch change {
            case .insert(let row, let beforeID):
                changes.append(.insert(parentID: parentID, beforeID: beforeID, html: row.renderHTML(context: context)))
            case .remove(let id):
                changes.append(.remove(id: id))
            case .move(let id, let beforeID):
                changes.append(.move(id: id, parentID: parentID, beforeID: beforeID))
            }
        }
    }

    override func discardStructuralChanges() {
        pendingChanges = []
    }

    /// Returns the values of a longest strictly increasing subsequence of `values` (patience sorting).
    static func longestIncreasingSubsequence(_ values: [Int]) -> [Int] {
        var tails: [Int] = []  // index into values of the smallest tail of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var result: [Int] = []
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            result.append(values[cursor])
            cursor = previous[cursor]
        }
        return result.reversed()
    }
}
