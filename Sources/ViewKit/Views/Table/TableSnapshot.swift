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
public struct TableSnapshot<SectionIdentifier: Hashable & Sendable, ItemIdentifier: Hashable & Sendable>: Sendable {
    /// The sections, in order.
    public private(set) var sectionIdentifiers: [SectionIdentifier] = []
    /// Each section's items, in order (parallel to `sectionIdentifiers`).
    private var sectionItems: [[ItemIdentifier]] = []
    /// Every item, for the uniqueness check and look-ups.
    private var itemSet: Set<ItemIdentifier> = []
    /// The items to configure again when the snapshot is applied.
    public private(set) var reloadedItemIdentifiers: Set<ItemIdentifier> = []
    /// The mistakes made building this snapshot (a duplicate identifier, an unknown section or item), each a
    /// sentence; empty when the snapshot is sound. Applying a snapshot with mistakes changes nothing.
    public private(set) var mistakes: [String] = []

    /// An empty snapshot: no sections, no items.
    public init() {}

    /// The number of sections.
    public var numberOfSections: Int { sectionIdentifiers.count }

    /// The number of items in all sections.
    public var numberOfItems: Int { itemSet.count }

    /// Every item, section after section, in order.
    public var itemIdentifiers: [ItemIdentifier] { Array(sectionItems.joined()) }

    /// The items of `section`, in order (none for a section the snapshot does not have).
    public func itemIdentifiers(inSection section: SectionIdentifier) -> [ItemIdentifier] {
        sectionIdentifiers.firstIndex(of: section).map { sectionItems[$0] } ?? []
    }

    /// The number of items in `section`.
    public func numberOfItems(inSection section: SectionIdentifier) -> Int {
        itemIdentifiers(inSection: section).count
    }

    /// The section holding `item`, or `nil`.
    public func sectionIdentifier(containingItem item: ItemIdentifier) -> SectionIdentifier? {
        guard itemSet.contains(item) else { return nil }
        return sectionItems.firstIndex { $0.contains(item) }.map { sectionIdentifiers[$0] }
    }

    /// The place of `item` among all the items (section after section), or `nil`.
    public func indexOfItem(_ item: ItemIdentifier) -> Int? {
        guard itemSet.contains(item) else { return nil }
        var offset = 0
        for items in sectionItems {
            if let index = items.firstIndex(of: item) { return offset + index }
            offset += items.count
        }
        return nil
    }

    /// The place of `section` among the sections, or `nil`.
    public func indexOfSection(_ section: SectionIdentifier) -> Int? {
        sectionIdentifiers.firstIndex(of: section)
    }

    // MARK: Sections

    /// Adds `sections` at the end. A section the snapshot already has is left out (a mistake).
    public mutating func appendSections(_ sections: [SectionIdentifier]) {
        for section in sections {
            guard !sectionIdentifiers.contains(section) else {
                mistakes.append("section \(section) is in the snapshot twice")
                continue
            }
            sectionIdentifiers.append(section)
            sectionItems.append([])
        }
    }

    /// Removes `sections` and their items.
    public mutating func deleteSections(_ sections: [SectionIdentifier]) {
        for section in sections {
            guard let index = sectionIdentifiers.firstIndex(of: section) else {
                mistakes.append("deleteSections: section \(section) is not in the snapshot")
                continue
            }
            for item in sectionItems[index] {
                itemSet.remove(item)
                reloadedItemIdentifiers.remove(item)
            }
            sectionIdentifiers.remove(at: index)
            sectionItems.remove(at: index)
        }
    }

    // MARK: Items

    /// Adds `items` at the end of `section` (the last section when `nil`). Without a section, the table's first
    /// section is made (`appendItems` on an empty snapshot is a mistake, as in UIKit, unless `section` is given).
    public mutating func appendItems(_ items: [ItemIdentifier], toSection section: SectionIdentifier? = nil) {
        let index: Int
        if let section {
            guard let found = sectionIdentifiers.firstIndex(of: section) else {
                mistakes.append("appendItems: section \(section) is not in the snapshot (append it first)")
                return
            }
            index = found
        } else {
            guard !sectionIdentifiers.isEmpty else {
                mistakes.append("appendItems: the snapshot has no section (appendSections first)")
                return
            }
            index = sectionIdentifiers.count - 1
        }
        sectionItems[index].reserveCapacity(sectionItems[index].count + items.count)
        itemSet.reserveCapacity(itemSet.count + items.count)
        for item in items {
            guard itemSet.insert(item).inserted else {
                mistakes.append("item \(item) is in the snapshot twice")
                continue
            }
            sectionItems[index].append(item)
        }
    }

    /// Inserts `items` just before `beforeItem`, in its section.
    public mutating func insertItems(_ items: [ItemIdentifier], beforeItem: ItemIdentifier) {
        insert(items, next: beforeItem, after: false)
    }

    /// Inserts `items` just after `afterItem`, in its section.
    public mutating func insertItems(_ items: [ItemIdentifier], afterItem: ItemIdentifier) {
        insert(items, next: afterItem, after: true)
    }

    private mutating func insert(_ items: [ItemIdentifier], next anchor: ItemIdentifier, after: Bool) {
        guard let (section, index) = position(of: anchor) else {
            mistakes.append("insertItems: item \(anchor) is not in the snapshot")
            return
        }
        var fresh: [ItemIdentifier] = []
        for item in items {
            guard itemSet.insert(item).inserted else {
                mistakes.append("item \(item) is in the snapshot twice")
                continue
            }
            fresh.append(item)
        }
        sectionItems[section].insert(contentsOf: fresh, at: after ? index + 1 : index)
    }

    /// Removes `items`.
    public mutating func deleteItems(_ items: [ItemIdentifier]) {
        let doomed = Set(items)
        for item in doomed where !itemSet.contains(item) {
            mistakes.append("deleteItems: item \(item) is not in the snapshot")
        }
        guard !doomed.isEmpty else { return }
        for section in sectionItems.indices { sectionItems[section].removeAll { doomed.contains($0) } }
        itemSet.subtract(doomed)
        reloadedItemIdentifiers.subtract(doomed)
    }

    /// Removes every section and item.
    public mutating func deleteAllItems() {
        self = TableSnapshot()
    }

    /// Moves `item` to just before `beforeItem` (possibly into another section).
    public mutating func moveItem(_ item: ItemIdentifier, beforeItem: ItemIdentifier) {
        move(item, next: beforeItem, after: false)
    }

    /// Moves `item` to just after `afterItem` (possibly into another section).
    public mutating func moveItem(_ item: ItemIdentifier, afterItem: ItemIdentifier) {
        move(item, next: afterItem, after: true)
    }

    private mutating func move(_ item: ItemIdentifier, next anchor: ItemIdentifier, after: Bool) {
        guard item != anchor else { return }
        guard let (fromSection, fromIndex) = position(of: item) else {
            mistakes.append("moveItem: item \(item) is not in the snapshot")
            return
        }
        guard position(of: anchor) != nil else {
            mistakes.append("moveItem: item \(anchor) is not in the snapshot")
            return
        }
        sectionItems[fromSection].remove(at: fromIndex)
        let (section, index) = position(of: anchor)!
        sectionItems[section].insert(item, at: after ? index + 1 : index)
    }

    /// Marks `items` to be configured again (their cells made anew by the cell provider, which may hand back the
    /// same cell through ``TableView/dequeueReusableCell(withIdentifier:)``).
    public mutating func reloadItems(_ items: [ItemIdentifier]) {
        for item in items {
            guard itemSet.contains(item) else {
                mistakes.append("reloadItems: item \(item) is not in the snapshot")
                continue
            }
            reloadedItemIdentifiers.insert(item)
        }
    }

    /// Marks `items` to be configured again in their current cells (as ``reloadItems(_:)``: a cell provider that
    /// dequeues gets the item's own cell back, so only what changed in it is sent).
    public mutating func reconfigureItems(_ items: [ItemIdentifier]) {
        reloadItems(items)
    }

    /// Marks every item of `sections` to be configured again.
    public mutating func reloadSections(_ sections: [SectionIdentifier]) {
        for section in sections { reloadItems(itemIdentifiers(inSection: section)) }
    }

    /// Forgets the reload marks (the data source does, once it applied them).
    mutating func clearReloads() {
        reloadedItemIdentifiers = []
    }

    private func position(of item: ItemIdentifier) -> (section: Int, index: Int)? {
        guard itemSet.contains(item) else { return nil }
        for section in sectionItems.indices {
            if let index = sectionItems[section].firstIndex(of: item) { return (section, index) }
        }
        return nil
    }

    /// The sections with their items, in order.
    var sections: [(section: SectionIdentifier, items: [ItemIdentifier])] {
        sectionIdentifiers.indices.map { (sectionIdentifiers[$0], sectionItems[$0]) }
    }
}
