/// The state of a table's data at one moment: its sections and the items of each, by identifier (the spirit of
/// UIKit's `NSDiffableDataSourceSnapshot`).
///
/// Build a snapshot, or take the current one from ``TableViewDiffableDataSource/snapshot()``, change it, and apply
/// it with ``TableViewDiffableDataSource/apply(_:)``: the table works out what changed by identity. Identifiers
/// are the items' identities (a database id), not their contents: an item whose content changed keeps its
/// identifier and is named with ``reloadItems(_:)`` (or ``reconfigureItems(_:)``), so its row is configured again.
///
/// Each section is in a snapshot once, and each item once (in one section). Where UIKit traps on a
/// duplicate, a snapshot records the mistake: the edit that would duplicate is left out, ``mistakes`` names it,
/// and applying the snapshot reports it and changes nothing on the screen.
///
/// ```swift
/// var snapshot = TableSnapshot<String, Int>()
/// snapshot.appendSections(["movies"])
/// snapshot.appendItems([3, 1, 2])
/// dataSource.apply(snapshot)
/// ```
///
/// The snapshot's code is inlined into the app's module, where it is specialised for the app's identifier types:
/// unspecialised, each array and set of identifiers it made looked its generic type up at run time, and each
/// identifier was copied, hashed and compared through witness tables (Benchmarks/History/40).
public struct TableSnapshot<SectionIdentifier: Hashable & Sendable, ItemIdentifier: Hashable & Sendable>: Sendable {
    /// The sections, in order.
    @inlinable public var sectionIdentifiers: [SectionIdentifier] { sectionList }
    /// The items to configure again when the snapshot is applied.
    @inlinable public var reloadedItemIdentifiers: Set<ItemIdentifier> { reloadSet }
    /// The mistakes made building this snapshot (a duplicate identifier, an unknown section or item), each a
    /// sentence; empty when the snapshot is sound. Applying a snapshot with mistakes changes nothing.
    @inlinable public var mistakes: [String] { mistakeList }

    /// The sections, in order.
    @usableFromInline var sectionList: [SectionIdentifier] = []
    /// Each section's items, in order (parallel to `sectionList`).
    @usableFromInline var sectionItems: [[ItemIdentifier]] = []
    /// Every item, for the uniqueness check and look-ups, once the snapshot has held more than ``smallItemCount``
    /// items (``hasItemSet``); empty until then.
    @usableFromInline var itemSet: Set<ItemIdentifier> = []
    /// Whether ``itemSet`` holds every item. Until it does, an item is looked for in the sections: a few comparisons
    /// for a small snapshot (a page's strip of a handful of rows), where making the set cost an allocation and a hash
    /// an item (Benchmarks/History/80-page-instructions-15.md).
    @usableFromInline var hasItemSet = false
    /// The items to configure again when the snapshot is applied.
    @usableFromInline var reloadSet: Set<ItemIdentifier> = []
    /// The mistakes made building the snapshot.
    @usableFromInline var mistakeList: [String] = []

    /// An empty snapshot: no sections, no items.
    @inlinable public init() {}

    /// The number of sections.
    @inlinable public var numberOfSections: Int { sectionList.count }

    /// The number of items in all sections.
    @inlinable public var numberOfItems: Int { hasItemSet ? itemSet.count : itemCountInSections }

    /// Every item, section after section, in order.
    @inlinable public var itemIdentifiers: [ItemIdentifier] { Array(sectionItems.joined()) }

    /// The items of `section`, in order (none for a section the snapshot does not have).
    @inlinable public func itemIdentifiers(inSection section: SectionIdentifier) -> [ItemIdentifier] {
        sectionList.firstIndex(of: section).map { sectionItems[$0] } ?? []
    }

    /// The number of items in `section`.
    @inlinable public func numberOfItems(inSection section: SectionIdentifier) -> Int {
        itemIdentifiers(inSection: section).count
    }

    /// The section holding `item`, or `nil`.
    @inlinable public func sectionIdentifier(containingItem item: ItemIdentifier) -> SectionIdentifier? {
        guard containsItem(item) else { return nil }
        return sectionItems.firstIndex { $0.contains(item) }.map { sectionList[$0] }
    }

    /// The place of `item` among all the items (section after section), or `nil`.
    @inlinable public func indexOfItem(_ item: ItemIdentifier) -> Int? {
        guard hasItemSet else { return placeOfItem(item) }
        guard itemSet.contains(item) else { return nil }
        return placeOfItem(item)
    }

    /// The most items a snapshot holds without its ``itemSet``: looked for in the sections, up to this many cost
    /// fewer instructions than the set's hashing and allocation.
    @inlinable static var smallItemCount: Int { 16 }

    /// Whether the snapshot has `item`: from the item set once there is one, else from the sections.
    @inlinable func containsItem(_ item: ItemIdentifier) -> Bool {
        hasItemSet ? itemSet.contains(item) : sectionItems.contains { $0.contains(item) }
    }

    /// Makes ``itemSet`` from the sections when there is none, with room for `extra` more items.
    @inlinable mutating func makeItemSet(extra: Int = 0) {
        guard !hasItemSet else {
            itemSet.reserveCapacity(itemSet.count + extra)
            return
        }
        var items = Set<ItemIdentifier>(minimumCapacity: itemCountInSections + extra)
        for section in sectionItems { items.formUnion(section) }
        itemSet = items
        hasItemSet = true
    }

    /// The place of `item` among all the items, found in the sections alone (without the item set).
    @inlinable func placeOfItem(_ item: ItemIdentifier) -> Int? {
        var offset = 0
        for items in sectionItems {
            if let index = items.firstIndex(of: item) { return offset + index }
            offset += items.count
        }
        return nil
    }

    /// The place of `section` among the sections, or `nil`.
    @inlinable public func indexOfSection(_ section: SectionIdentifier) -> Int? {
        sectionList.firstIndex(of: section)
    }

    // MARK: Sections

    /// Adds `sections` at the end. A section the snapshot already has is left out (a mistake).
    @inlinable public mutating func appendSections(_ sections: [SectionIdentifier]) {
        for section in sections {
            guard !sectionList.contains(section) else {
                mistakeList.append("section \(section) is in the snapshot twice")
                continue
            }
            sectionList.append(section)
            sectionItems.append([])
        }
    }

    /// Removes `sections` and their items.
    @inlinable public mutating func deleteSections(_ sections: [SectionIdentifier]) {
        for section in sections {
            guard let index = sectionList.firstIndex(of: section) else {
                mistakeList.append("deleteSections: section \(section) is not in the snapshot")
                continue
            }
            for item in sectionItems[index] {
                itemSet.remove(item)
                reloadSet.remove(item)
            }
            sectionList.remove(at: index)
            sectionItems.remove(at: index)
        }
    }

    // MARK: Items

    /// Adds `items` at the end of `section` (the last section when `nil`). Without a section, the table's first
    /// section is made (`appendItems` on an empty snapshot is a mistake, as in UIKit, unless `section` is given).
    @inlinable public mutating func appendItems(_ items: [ItemIdentifier], toSection section: SectionIdentifier? = nil)
    {
        let index: Int
        if let section {
            guard let found = sectionList.firstIndex(of: section) else {
                mistakeList.append("appendItems: section \(section) is not in the snapshot (append it first)")
                return
            }
            index = found
        } else {
            guard !sectionList.isEmpty else {
                mistakeList.append("appendItems: the snapshot has no section (appendSections first)")
                return
            }
            index = sectionList.count - 1
        }
        sectionItems[index].reserveCapacity(sectionItems[index].count + items.count)
        if !hasItemSet, itemCountInSections + items.count <= Self.smallItemCount {
            // Few enough to look for in the sections; a duplicate within `items` is found among those appended.
            for item in items {
                guard !containsItem(item) else {
                    mistakeList.append("item \(item) is in the snapshot twice")
                    continue
                }
                sectionItems[index].append(item)
            }
            return
        }
        makeItemSet(extra: items.count)
        for item in items {
            guard itemSet.insert(item).inserted else {
                mistakeList.append("item \(item) is in the snapshot twice")
                continue
            }
            sectionItems[index].append(item)
        }
    }

    /// Inserts `items` just before `beforeItem`, in its section.
    @inlinable public mutating func insertItems(_ items: [ItemIdentifier], beforeItem: ItemIdentifier) {
        insert(items, next: beforeItem, after: false)
    }

    /// Inserts `items` just after `afterItem`, in its section.
    @inlinable public mutating func insertItems(_ items: [ItemIdentifier], afterItem: ItemIdentifier) {
        insert(items, next: afterItem, after: true)
    }

    @inlinable mutating func insert(_ items: [ItemIdentifier], next anchor: ItemIdentifier, after: Bool) {
        guard let (section, index) = position(of: anchor) else {
            mistakeList.append("insertItems: item \(anchor) is not in the snapshot")
            return
        }
        makeItemSet(extra: items.count)
        var fresh: [ItemIdentifier] = []
        for item in items {
            guard itemSet.insert(item).inserted else {
                mistakeList.append("item \(item) is in the snapshot twice")
                continue
            }
            fresh.append(item)
        }
        sectionItems[section].insert(contentsOf: fresh, at: after ? index + 1 : index)
    }

    /// Removes `items`.
    @inlinable public mutating func deleteItems(_ items: [ItemIdentifier]) {
        let doomed = Set(items)
        for item in doomed where !containsItem(item) {
            mistakeList.append("deleteItems: item \(item) is not in the snapshot")
        }
        guard !doomed.isEmpty else { return }
        for section in sectionItems.indices { sectionItems[section].removeAll { doomed.contains($0) } }
        itemSet.subtract(doomed)
        reloadSet.subtract(doomed)
    }

    /// Removes every section and item.
    @inlinable public mutating func deleteAllItems() {
        self = TableSnapshot()
    }

    /// Moves `item` to just before `beforeItem` (possibly into another section).
    @inlinable public mutating func moveItem(_ item: ItemIdentifier, beforeItem: ItemIdentifier) {
        move(item, next: beforeItem, after: false)
    }

    /// Moves `item` to just after `afterItem` (possibly into another section).
    @inlinable public mutating func moveItem(_ item: ItemIdentifier, afterItem: ItemIdentifier) {
        move(item, next: afterItem, after: true)
    }

    @inlinable mutating func move(_ item: ItemIdentifier, next anchor: ItemIdentifier, after: Bool) {
        guard item != anchor else { return }
        guard let (fromSection, fromIndex) = position(of: item) else {
            mistakeList.append("moveItem: item \(item) is not in the snapshot")
            return
        }
        guard position(of: anchor) != nil else {
            mistakeList.append("moveItem: item \(anchor) is not in the snapshot")
            return
        }
        sectionItems[fromSection].remove(at: fromIndex)
        let (section, index) = position(of: anchor)!
        sectionItems[section].insert(item, at: after ? index + 1 : index)
    }

    /// Marks `items` to be configured again (their cells made anew by the cell provider, which may hand back the
    /// same cell through ``TableView/dequeueReusableCell(withIdentifier:)``).
    @inlinable public mutating func reloadItems(_ items: [ItemIdentifier]) {
        for item in items {
            guard containsItem(item) else {
                mistakeList.append("reloadItems: item \(item) is not in the snapshot")
                continue
            }
            reloadSet.insert(item)
        }
    }

    /// Marks `items` to be configured again in their current cells (as ``reloadItems(_:)``: a cell provider that
    /// dequeues gets the item's own cell back, so only what changed in it is sent).
    @inlinable public mutating func reconfigureItems(_ items: [ItemIdentifier]) {
        reloadItems(items)
    }

    /// Marks every item of `sections` to be configured again.
    @inlinable public mutating func reloadSections(_ sections: [SectionIdentifier]) {
        for section in sections { reloadItems(itemIdentifiers(inSection: section)) }
    }

    /// Forgets the reload marks (the data source does, once it applied them).
    /// Makes this snapshot what a data source keeps of the one it applied: its sections and their items, without
    /// the reload marks, and without the item set, which only building a snapshot needs (``restoringItemSet()`` makes
    /// it again for one handed out).
    @inlinable mutating func keepSectionsAlone() {
        reloadSet = []
        itemSet = []
        hasItemSet = false
    }

    /// This snapshot with its item set made again from its sections (see ``keepSectionsAlone()``).
    @inlinable func restoringItemSet() -> Self {
        var snapshot = self
        if itemCountInSections > Self.smallItemCount { snapshot.makeItemSet() }
        return snapshot
    }

    /// The number of items, counted in the sections (without the item set).
    @inlinable var itemCountInSections: Int { sectionItems.reduce(0) { $0 + $1.count } }

    @inlinable func position(of item: ItemIdentifier) -> (section: Int, index: Int)? {
        guard !hasItemSet || itemSet.contains(item) else { return nil }
        for section in sectionItems.indices {
            if let index = sectionItems[section].firstIndex(of: item) { return (section, index) }
        }
        return nil
    }

    /// The sections with their items, in order.
    @inlinable var sections: [(section: SectionIdentifier, items: [ItemIdentifier])] {
        sectionList.indices.map { (sectionList[$0], sectionItems[$0]) }
    }
}
