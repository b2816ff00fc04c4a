internal import Reactive

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
public class ListView: View {
    /// The rows' identities as the caller gave them, in order; nil before the first update.
    var identities: (any RowIdentityList)?
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

    /// The identity of `row` as text (`String(describing:)` of the caller's identity), which a row's buttons post
    /// with their action (`?row=`), or `nil` when `row` is not one of the rows.
    public func identityDescription(ofRow row: View) -> String? {
        guard let index = liveSubviews.firstIndex(where: { $0 === row }) else { return nil }
        return identities?.description(at: index)
    }

    /// The row whose identity reads `description`, as ``identityDescription(ofRow:)`` writes it.
    public func row(withIdentityDescription description: String) -> View? {
        guard let identities else { return nil }
        for index in 0..<min(identities.count, liveSubviews.count)
        where identities.description(at: index) == description {
            return liveSubviews[index]
        }
        return nil
    }

    /// The row showing the item with identity `id`, if any.
    public func row(for id: some Hashable) -> View? {
        identities?.index(of: AnyHashable(id)).map { subviews[$0] }
    }

    // The generic shell is inlined into the caller's module, where it is specialised for the caller's item and
    // identity types; the diff itself is `reconcile`, which knows identities as `AnyHashable` and items by index.
    // Unspecialised across modules, walking the generic items (enumerated tuples, say) would cost more than the
    // diff. The identities are kept in the caller's type and made `AnyHashable` only for a diff: filling an empty
    // list (every new page's) wraps none. Final, so that a call from another module is not dispatched through the
    // class's table, where the generic body could not be specialised.
    /// Makes the rows match `items`: creates rows for new identities with `makeRow`, removes rows
    /// of identities no longer present, moves rows into the new order, and calls `configureRow` for
    /// every item with its row. Identities must be unique: items whose identity came earlier in `items` are left
    /// out, and a ``ProgrammerError`` naming the duplicates is reported (the screen fails), instead of a trap.
    @inlinable
    public final func update<Item, ID: Hashable>(
        with items: [Item], id: (Item) -> ID, makeRow: (Item) -> View, configureRow: (View, Item) -> Void
    ) {
        var items = items
        var ids = items.map(id)
        if !Self.areUnique(ids) {
            var seen = Set<ID>()
            let kept = ids.indices.filter { seen.insert(ids[$0]).inserted }
            Self.reportDuplicateIdentities(Array(Set(ids.indices).subtracting(kept).map { ids[$0] }.prefix(5)))
            items = kept.map { items[$0] }
            ids = kept.map { ids[$0] }
        }
        let rows = reconcile(TypedRowIdentities(ids)) { makeRow(items[$0]) }
        for index in items.indices { configureRow(rows[index], items[index]) }
        finishUpdate()
    }

    /// Makes the rows match `newIdentities` and returns them in order, making the row of a new identity with
    /// `makeRow(index)`; records the insertions, removals and moves for the next patch once rendered.
    @usableFromInline
    func reconcile(_ newIdentities: some RowIdentityList, makeRow: (Int) -> View) -> [View] {
        defer { identities = newIdentities }
        // Rows and static markup share the subviews: the markup becomes views first (rendering the list whole).
        materializeStaticContent()
        let recordChanges = !needsRender
        // An empty list being filled (every new page's lists): no identities to match, no moves. The rows go in in
        // order; the insertions are recorded as the walk below would record them, back to front, each before its
        // successor, once every row is attached (a row's DOM id comes from the tree it is in).
        if (identities?.count ?? 0) == 0 && subviews.isEmpty {
            reserveSubviewCapacity(newIdentities.count)
            var rows: [View] = []
            rows.reserveCapacity(newIdentities.count)
            for index in 0..<newIdentities.count {
                let row = makeRow(index)
                attachSubviewQuietly(row, at: rows.count)
                rows.append(row)
            }
            if recordChanges {
                // Taken out once for the rows, as ``record(_:)`` does for one.
                var pending = pendingChanges
                pendingChanges = []
                for index in rows.indices.reversed() {
                    let successor = index + 1 < rows.count ? rows[index + 1] : nil
                    pending.append(.insert(row: rows[index], beforeID: successor?.domID))
                }
                pendingChanges = pending
            }
            return rows
        }
        let newIDs = newIdentities.erased()
        var rowIDs = identities?.erased() ?? []
        let newIDSet = Set(newIDs)

        // Removals, back to front so indices stay valid.
        for index in rowIDs.indices.reversed() where !newIDSet.contains(rowIDs[index]) {
            if recordChanges { record(.remove(id: subviews[index].domID)) }
            rowIDs.remove(at: index)
            detachSubviewQuietly(at: index)
        }

        // Rows that stay, and which of them keep their place (a longest increasing run).
        var oldIndex: [AnyHashable: Int] = [:]
        for index in rowIDs.indices { oldIndex[rowIDs[index]] = index }
        let keptOldIndices = newIDs.compactMap { oldIndex[$0] }
        let staying = Set(Self.longestIncreasingSubsequence(keptOldIndices))
        let oldRows = subviews

        // Walk the new order from the end, so each row goes in before its (already placed) successor.
        var finalRows = [View?](repeating: nil, count: newIDs.count)
        var successor: View?
        for index in newIDs.indices.reversed() {
            let row: View
            if let old = oldIndex[newIDs[index]] {
                row = oldRows[old]
                if !staying.contains(old) {
                    if recordChanges { record(.move(id: row.domID, beforeID: successor?.domID)) }
                    reorderSubviewsQuietly(subviews.filter { $0 !== row })
                    let position = successor.flatMap { next in subviews.firstIndex { $0 === next } } ?? subviews.count
                    var reordered = subviews
                    reordered.insert(row, at: position)
                    reorderSubviewsQuietly(reordered)
                }
            } else {
                row = makeRow(index)
                let position = successor.flatMap { next in subviews.firstIndex { $0 === next } } ?? subviews.count
                attachSubviewQuietly(row, at: position)
                if recordChanges { record(.insert(row: row, beforeID: successor?.domID)) }
            }
            finalRows[index] = row
            successor = row
        }
        return finalRows.map { $0! }
    }

    /// Puts `newRow` in the place of the row at `index` (same identity, another view): recorded as the old row's
    /// removal and the new row's insertion before its successor.
    func replaceRow(at index: Int, with newRow: View) {
        let recordChanges = !needsRender
        let oldRow = liveSubviews[index]
        if recordChanges { record(.remove(id: oldRow.domID)) }
        detachSubviewQuietly(at: index)
        attachSubviewQuietly(newRow, at: index)
        let successor = index + 1 < liveSubviews.count ? liveSubviews[index + 1] : nil
        if recordChanges { record(.insert(row: newRow, beforeID: successor?.domID)) }
    }

    /// Adds `change` to those pending. The list is taken out, grown and put back whole: an access to `pendingChanges`
    /// spanning the append (which may reallocate and release the old storage) would need a run-time exclusivity check
    /// on every access to it (Benchmarks/History/69-exclusivity-by-shape-2.md).
    private func record(_ change: PendingChange) {
        var pending = pendingChanges
        pendingChanges = []
        pending.append(change)
        pendingChanges = pending
    }

    /// Reports identities given to more than one item of an update.
    @usableFromInline
    static func reportDuplicateIdentities(_ duplicates: [any Hashable]) {
        ProgrammerErrors.report(
            ProgrammerError(
                mistake: "ListView.update was given items that share an identity (\(duplicates.map { "\($0)" })); "
                    + "only the first item of each identity is shown.",
                fix: "give every item its own identity in update(with:id:…): a database id, not a title or a position.")
        )
    }

    /// Whether no two of `ids` are equal: pairwise for the few rows most lists have (specialised with the
    /// caller's identity type, where comparing two is cheap), hashing beyond.
    @inlinable
    static func areUnique<ID: Hashable>(_ ids: [ID]) -> Bool {
        guard ids.count > 16 else {
            for index in ids.indices {
                for other in ids.indices where other > index && ids[other] == ids[index] { return false }
            }
            return true
        }
        return Set(ids).count == ids.count
    }

    /// Marks the list for the next patch when `reconcile` recorded changes.
    @usableFromInline
    func finishUpdate() {
        if !pendingChanges.isEmpty { markDirtyDescendant() }
    }

    /// Removes every row.
    public func removeAllRows() {
        update(with: [Int](), id: { $0 }, makeRow: { _ in View() }, configureRow: { _, _ in })
    }

    override func collectStructuralChanges(
        into changes: inout [ViewChange], context: inout RenderContext?, making makeContext: () -> RenderContext
    ) {
        let parentID = domID
        let pending = pendingChanges
        pendingChanges = []
        for change in pending {
            switch change {
            case .insert(let row, let beforeID):
                let html = row.renderHTML(context: context.made(by: makeContext))
                changes.append(.insert(parentID: parentID, beforeID: beforeID, html: html))
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

/// A list's row identities, kept in the caller's identity type.
@usableFromInline
protocol RowIdentityList {
    var count: Int { get }
    /// The identities as `AnyHashable`, for a diff against another list's.
    func erased() -> [AnyHashable]
    /// Where `id` is, compared as `AnyHashable`s compare, without wrapping the whole list.
    func index(of id: AnyHashable) -> Int?
    /// The identity at `index` as text.
    func description(at index: Int) -> String
}

@usableFromInline
struct TypedRowIdentities<ID: Hashable>: RowIdentityList {
    @usableFromInline let ids: [ID]

    @inlinable init(_ ids: [ID]) {
        self.ids = ids
    }

    @inlinable var count: Int { ids.count }

    @inlinable func erased() -> [AnyHashable] {
        ids.map { AnyHashable($0) }
    }

    @inlinable func description(at index: Int) -> String {
        String(describing: ids[index])
    }

    @inlinable func index(of id: AnyHashable) -> Int? {
        // The caller's own type compares directly; another (an `Int8` for `Int` identities, say) as `AnyHashable`,
        // which equates numbers of different types.
        if let typed = id.base as? ID { return ids.firstIndex(of: typed) }
        return ids.firstIndex { AnyHashable($0) == id }
    }
}
