internal import Reactive

/// A list of any length whose rows are cells made from prototypes and kept by item identity (the spirit of UIKit's
/// `UITableView`): fed by a ``TableViewDiffableDataSource``.
///
/// In a template, a table view's element holds its cell prototypes, each a child element with `data-cell` naming
/// its reuse identifier; they are not rendered as they are, but made into a cell each time
/// ``dequeueReusableCell(withIdentifier:)`` asks for one. A cell's outlets are its own (`cell.outlet("title")`), and
/// a screen's outlets do not reach into the table.
///
/// ```html
/// <ul data-view="TableView" data-outlet="moviesTable" aria-label="Movies">
///   <li data-cell="movie"><a data-outlet="link"><span data-outlet="title"></span></a>
///     <button data-action="select">Open</button></li>
/// </ul>
/// ```
///
/// A button in a cell posts its action with the identity of its row, never its index: the data source delivers it
/// with the item's identifier (``TableViewDiffableDataSource/actions(named:)``), and a button whose action is the
/// table's select action (`data-select-action`, `select` by default) is the table's `didSelectRowAt`
/// (``TableViewDiffableDataSource/itemSelected``).
public class TableView: ListView {
    /// The cell prototypes the template gave, by reuse identifier.
    /// Only read into a constant or assigned whole, as `cellClasses` is: a read spanning a look-up (which hashes the
    /// name) or a change in place would need a run-time exclusivity check on every access to it
    /// (Benchmarks/History/69-exclusivity-by-shape-2.md).
    var cellPrototypes: [String: Prototype] = [:]
    /// The cell classes registered in code, by reuse identifier.
    private var cellClasses: [String: View.Type] = [:]
    /// The action of the cells' buttons that selects their row.
    public internal(set) var selectActionName = "select"
    /// The row being configured again, which ``dequeueReusableCell(withIdentifier:)`` hands back, and its reuse
    /// identifier.
    var reusableRow: (row: View, identifier: String)?
    /// The taps of buttons in cells: the action name and the cell. Made when first observed or tapped: a table whose
    /// cells' actions nobody follows (a strip of links) keeps no relay.
    var rowActions: PublishRelay<(action: String, row: View)> {
        if let madeRowActions { return madeRowActions }
        let relay = PublishRelay<(action: String, row: View)>()
        madeRowActions = relay
        return relay
    }
    private var madeRowActions: PublishRelay<(action: String, row: View)>?
    /// Whether the table holds its window state and its relay of row actions (for tests that it makes them only when
    /// used).
    var holdsWindowing: Bool { windowing != nil }
    var holdsRowActions: Bool { madeRowActions != nil }

    /// Creates an empty table rendered as `<tagName>` (`<ul>` by default).
    public required init(tagName: String = "ul") {
        super.init(tagName: tagName)
        // The cells' outlets are theirs: a screen's outlet look-up stops at the table.
        isOutletScope = true
    }

    // MARK: Windowed rendering

    /// The most rows the page and the screen hold at once when the table is windowed (`data-window="N"` in the
    /// template, 20 to 200), or `nil` when every row is rendered. A windowed table renders the rows of a window
    /// around what the user sees, between two spacer rows standing for the rows before and after it (their number in
    /// `data-rows`, which the page's script turns into heights); the script asks for other rows as the user scrolls
    /// (``showRows(from:key:)``).
    public internal(set) var windowSize: Int? {
        get { windowing?.size }
        set { if newValue != nil || windowing != nil { window.size = newValue } }
    }
    /// The place of the window's first row among all the rows.
    public internal(set) var windowStart: Int {
        get { windowing?.start ?? 0 }
        set { if newValue != 0 || windowing != nil { window.start = newValue } }
    }
    /// The number of rows in all (rendered or not).
    public internal(set) var totalRowCount = 0
    /// The first row the user sees, by identity, as the page last told it, and how many rows the window keeps above
    /// it: what a change keeps in place, so rows arriving above it move nothing in view.
    var anchor: (key: TableRowKey, offset: Int)? {
        get { windowing?.anchor }
        set { if newValue != nil || windowing != nil { window.anchor = newValue } }
    }
    /// Asks the data source to render the window again (after ``showRows(from:key:)`` moved it).
    @usableFromInline var windowDidMove: (() -> Void)?
    /// The spacer rows before and after the window, made when first asked for.
    @usableFromInline var spacers: (top: View, bottom: View) {
        if let spacers = window.spacers { return spacers }
        let spacers = (top: makeSpacer("top"), bottom: makeSpacer("bottom"))
        window.spacers = spacers
        return spacers
    }

    /// What a windowed table (or one a page is asked of) keeps beside its rows, in an allocation of its own made on
    /// first use: a table that shows every row (a detail screen's strip, kept as long as its screen) holds none of it.
    final class Windowing {
        var size: Int?
        var start = 0
        var anchor: (key: TableRowKey, offset: Int)?
        var spacers: (top: View, bottom: View)?
        var pageLink: ((Int) -> String)?
        var pageStart: Int?
        var anchorRequest: (first: Int, key: String?)?
    }
    private var windowing: Windowing?
    /// The table's windowing state, made on first use.
    private var window: Windowing {
        if let windowing { return windowing }
        let made = Windowing()
        windowing = made
        return made
    }

    /// The rows a windowed table keeps before the first row the user sees.
    var rowsBeforeAnchor: Int { (windowSize ?? 0) / 4 }

    /// A spacer row, holding the link to the previous page (top) or the next (bottom), which the page follows when
    /// its script does not run; the script hides the links and the spacers from assistive technology.
    private func makeSpacer(_ name: String) -> View {
        let spacer = View(tagName: rowTagName)
        spacer.setAttribute("data-spacer", name)
        spacer.setAttribute("data-rows", "0")
        let link = Label(text: name == "top" ? "Previous page" : "Next page", tagName: "a")
        link.setAttribute("data-page-link", "")
        link.setAttribute("rel", name == "top" ? "prev" : "next")
        link.isHidden = true
        spacer.addSubview(link)
        return spacer
    }

    /// The address of page `page` (1-based) of the table, for the links that page through it without the page's
    /// script: `?page=N` by default. Set it to keep the rest of the screen's query (a search, say).
    public var pageLink: (Int) -> String {
        get { windowing?.pageLink ?? Self.defaultPageLink }
        set { window.pageLink = newValue }
    }
    private static let defaultPageLink: @Sendable (Int) -> String = { "?page=\($0)" }

    /// The page (1-based) the table shows, as its links count them: its window's rows, `windowSize` to a page.
    public var currentPage: Int { windowStart / max(1, windowSize ?? 1) + 1 }

    /// Shows page `page` (1-based; `windowSize` rows to a page): what a screen does with `?page=N` from its request,
    /// so that each page is a normal server render when the browser runs no script. A page past the end shows the
    /// last. Does nothing for a table that is not windowed.
    public func showPage(_ page: Int) {
        guard let size = windowSize else { return }
        pageStart = max(0, page - 1) * size
        windowDidMove?()
    }
    /// The first row of the page last asked for, until the data source renders it.
    var pageStart: Int? {
        get { windowing?.pageStart }
        set { if newValue != nil || windowing != nil { window.pageStart = newValue } }
    }

    /// Points the spacers' links at the pages before and after the window, and hides those that lead nowhere.
    func updatePageLinks() {
        guard let size = windowSize else { return }
        let page = windowStart / size + (windowStart % size == 0 ? 1 : 2)
        for (spacer, target, exists) in [
            (spacers.top, page - 1, windowStart > 0), (spacers.bottom, page + 1, windowStart + size < totalRowCount),
        ] {
            guard let link = spacer.liveSubviews.first else { continue }
            link.isHidden = !exists
            // A link keeps an address even when hidden: `rel` needs one.
            link.setAttribute("href", pageLink(max(1, target)))
        }
    }

    /// Makes the table's rows those of `keys` (a windowed table's spacers first and last), the first row of the window
    /// at `start` among `total` rows, and sends what changed. A key that has no row gets one from `make`, with its
    /// place; an item of `reloaded` that kept its row is configured again by `configure`, which gets that row back when
    /// it dequeues a cell of the row's kind (so only what changed in it is sent). The data sources call it once
    /// they know which rows the window holds.
    @usableFromInline
    func show<Item: Hashable>(
        _ keys: [TableRowKey], from start: Int, of total: Int, reloading reloaded: Set<Item>,
        make: (TableRowKey) -> View, configure: (Item) -> View
    ) {
        let windowed = windowSize != nil
        // The rows made now, which a reload leaves alone: only asked when there are items to reload (a first fill,
        // and most updates, have none), so only kept then.
        var made = Set<Int>()
        let reloads = !reloaded.isEmpty
        let rows = reconcile(TypedRowIdentities(keys)) { index in
            if reloads { made.insert(index) }
            let row = make(keys[index])
            // A windowed table's first key is its top spacer.
            if keys[index].kind != .spacer { setPlace(of: row, at: start + index - (windowed ? 1 : 0), of: total) }
            return row
        }
        if reloads {
            for index in rows.indices where !made.contains(index) {
                guard keys[index].kind == .item, let item = keys[index].identifier(as: Item.self),
                    reloaded.contains(item)
                else { continue }
                let row = rows[index]
                reusableRow = reuseIdentifier(of: row).map { (row, $0) }
                let cell = configure(item)
                reusableRow = nil
                if cell !== row {
                    cell.setAttribute("data-key", keys[index].description)
                    replaceRow(at: index, with: cell)
                }
            }
        }
        if windowed {
            windowStart = start
            spacers.top.setAttribute("data-rows", String(start))
            spacers.bottom.setAttribute("data-rows", String(max(0, total - start - (keys.count - 2))))
        }
        totalRowCount = total
        updatePageLinks()
        finishUpdate()
    }

    /// Gives a windowed table's new row its place among all the rows (`place`, from 0) and their number, for
    /// assistive technology in a page that runs no script: a page render makes every row. The page's script keeps
    /// the places current as rows come and go, so a row the screen keeps is not sent again for a place that moved.
    func setPlace(of row: View, at place: Int, of total: Int) {
        guard windowSize != nil else { return }
        row.setAttribute("aria-posinset", String(place + 1))
        row.setAttribute("aria-setsize", String(total))
    }

    /// The element name of rows: `tr` in a table body, `li` in a list, `div` otherwise.
    @usableFromInline var rowTagName: String {
        switch tagName {
        case "ul", "ol", "menu": "li"
        case "tbody", "thead", "table": "tr"
        default: "div"
        }
    }

    /// Makes the window start near row `first` (its place among all the rows, as the page counts them), the row
    /// whose identity reads `key` when the page names one that is still there: the page's script calls it as the
    /// user scrolls, through the screen's range path. The rows that come into the window are made and sent; those
    /// that leave it are removed from the page and from the screen. Does nothing for a table that is not windowed.
    public func showRows(from first: Int, key: String?) {
        guard windowSize != nil else { return }
        anchorRequest = (max(0, first), key)
        windowDidMove?()
    }
    /// The last place the page asked for, until the data source renders it.
    var anchorRequest: (first: Int, key: String?)? {
        get { windowing?.anchorRequest }
        set { if newValue != nil || windowing != nil { window.anchorRequest = newValue } }
    }

    // MARK: Reading the template

    public override class var templateAttributes: Set<String> { ["data-select-action", "data-window"] }

    public override class func templateConfiguration(from element: TemplateElement) throws(TemplateError)
        -> TemplateConfiguration?
    {
        let action = element.attribute("data-select-action") ?? "select"
        guard !action.isEmpty, View.isValidName(action) else {
            throw element.error("data-select-action must be an action name (letters, digits and -), not “\(action)”")
        }
        var windowSize: Int?
        if let text = element.attribute("data-window") {
            guard let size = Int(text), (20...200).contains(size) else {
                throw element.error("data-window must be a number of rows from 20 to 200, not “\(text)”")
            }
            windowSize = size
        }
        let window = windowSize
        return TemplateConfiguration(TableView.self) { table in
            table.selectActionName = action
            table.windowSize = window
            if window != nil { table.setAttribute("data-table-window", String(window ?? 0)) }
        }
    }

    /// The reuse identifiers the table can make cells for: its template's prototypes and the registered classes.
    public var cellReuseIdentifiers: [String] {
        let (prototypes, classes) = (cellPrototypes, cellClasses)
        return Array(Set(prototypes.keys).union(classes.keys)).sorted()
    }

    /// Makes cells of `identifier` from `cellClass` (a cell built in code), like UIKit's
    /// `register(_:forCellReuseIdentifier:)`; a prototype of the same identifier in the template is replaced.
    public func register(_ cellClass: View.Type, forCellReuseIdentifier identifier: String) {
        var (prototypes, classes) = (cellPrototypes, cellClasses)
        (cellPrototypes, cellClasses) = ([:], [:])
        classes[identifier] = cellClass
        prototypes[identifier] = nil
        (cellPrototypes, cellClasses) = (prototypes, classes)
    }

    /// A cell of the kind `identifier`: while the data source configures an item again (a reload), that item's own
    /// cell when it is of this kind, so only what changed in it is sent; otherwise a new cell made from the
    /// prototype or the registered class. An unknown identifier is a programmer error: it is reported (the screen
    /// fails) and a plain `<li>` stands in.
    public func dequeueReusableCell(withIdentifier identifier: String) -> View {
        if let reusable = reusableRow, reusable.identifier == identifier {
            reusableRow = nil
            return reusable.row
        }
        let cell: View
        if let prototype = cellPrototype(identifier) {
            // A cell of a table rendered once records no path to its changes either (``View/buildingForOneRender(_:)``).
            cell = prototype.instantiate(recordingChanges: recordsChanges)
            // Plain views, labels and images only: no button to connect (statics known when the template loaded).
            if !prototype.mayHoldButtons { return cell }
        } else if case let classes = cellClasses, let type = classes[identifier] {
            cell = type.init(tagName: "li")
            cell.setAttribute("data-cell", identifier)
        } else {
            ProgrammerErrors.report(
                ProgrammerError(
                    mistake: "TableView.dequeueReusableCell: no cell is registered as “\(identifier)” (the table has "
                        + "\(cellReuseIdentifiers.map { "“\($0)”" }.joined(separator: ", ")))",
                    fix: "add a prototype <li data-cell=\"\(identifier)\"> inside the table's element in the template, "
                        + "or call register(_:forCellReuseIdentifier:)."))
            cell = View(tagName: "li")
        }
        connectButtons(in: cell)
        return cell
    }

    /// The prototype of the cells `identifier` names. A table of one kind of cell (most) compares the name with its
    /// one prototype's rather than hashing it for the dictionary, once a cell (Benchmarks/History/44).
    private func cellPrototype(_ identifier: String) -> Prototype? {
        let prototypes = cellPrototypes
        if prototypes.count == 1, let only = prototypes.first {
            return only.key == identifier ? only.value : nil
        }
        return prototypes[identifier]
    }

    /// The reuse identifier `cell` was dequeued with (its `data-cell`, which the page keeps too).
    func reuseIdentifier(of cell: View) -> String? {
        cell.attribute("data-cell")
    }

    /// Sends the taps of the buttons in `cell` (its actions, posted with its row's identity) to ``rowActions``.
    private func connectButtons(in cell: View) {
        var stack = [cell]
        while let view = stack.popLast() {
            stack.append(contentsOf: view.liveSubviews)
            guard let button = view as? Button, !button.actionName.isEmpty else { continue }
            let action = button.actionName
            // The button's relay holds this subscription and the cell holds the button: both go with the cell.
            _ = button.taps.subscribe(onNext: { [weak self, weak cell] in
                guard let self, let cell else { return }
                rowActions.accept((action, cell))
            })
        }
    }

    /// The key of the row `row`, or `nil` when it is not one of the rows.
    func key(ofRow row: View) -> TableRowKey? {
        guard let keys = identities as? TypedRowIdentities<TableRowKey>,
            let index = liveSubviews.firstIndex(where: { $0 === row }), index < keys.ids.count
        else { return nil }
        return keys.ids[index]
    }

    /// The cells in the page, in order (UIKit's `visibleCells`): every row but a windowed table's spacers.
    public var visibleCells: [View] {
        guard let spacers = windowSize == nil ? nil : spacers else { return rows }
        return rows.filter { $0 !== spacers.top && $0 !== spacers.bottom }
    }

    /// The cell showing `item` (UIKit's `cellForRow(at:)`, by identity), or `nil` when its row is not in the page.
    public func cell(forItem item: some Hashable) -> View? {
        // Compared as `AnyHashable`s compare, which equates numbers of different types, as the rows' diff does not.
        guard let keys = identities as? TypedRowIdentities<TableRowKey> else { return nil }
        let wanted = AnyHashable(item)
        guard
            let index = keys.ids.firstIndex(where: { $0.kind == .item && $0.identifier.erasedRowIdentifier == wanted })
        else { return nil }
        return subviews[index]
    }
}

/// A table row's identity: an item's, a section header's, a spacer's.
///
/// The identifier is kept as the data source's own type in an existential, not as an `AnyHashable`: making an
/// `AnyHashable` asks the runtime, for each key of each first fill, whether the type has a custom representation, and
/// taking the identifier back out of one went through `Any` (Benchmarks/History/50). Two keys are equal when their
/// kinds are and their identifiers are of one type and equal; ``TableView/cell(forItem:)`` compares as `AnyHashable`
/// does (an `Int8` finds the cell of an `Int` identifier).
@usableFromInline
struct TableRowKey: Hashable, CustomStringConvertible {
    @usableFromInline
    enum Kind: UInt8 {
        case item
        case header
        case spacer
    }
    @usableFromInline let kind: Kind
    @usableFromInline let identifier: any Hashable & Sendable

    @inlinable init(kind: Kind, identifier: any Hashable & Sendable) {
        self.kind = kind
        self.identifier = identifier
    }

    @inlinable static func item(_ id: some Hashable & Sendable) -> TableRowKey {
        TableRowKey(kind: .item, identifier: id)
    }
    @inlinable static func header(_ id: some Hashable & Sendable) -> TableRowKey {
        TableRowKey(kind: .header, identifier: id)
    }
    @usableFromInline static var topSpacer: TableRowKey { TableRowKey(kind: .spacer, identifier: 0) }
    @usableFromInline static var bottomSpacer: TableRowKey { TableRowKey(kind: .spacer, identifier: 1) }

    /// The identifier as a value of `type`, or nil when it is of another type.
    @inlinable func identifier<ID>(as type: ID.Type) -> ID? {
        identifier as? ID
    }

    @usableFromInline static func == (lhs: TableRowKey, rhs: TableRowKey) -> Bool {
        lhs.kind == rhs.kind && lhs.identifier.isSameRowIdentifier(as: rhs.identifier)
    }

    @usableFromInline func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        identifier.hash(into: &hasher)
    }

    /// What a row's buttons post as `?row=`: an item's identifier as text; a header's, marked.
    @usableFromInline var description: String {
        switch kind {
        case .item: String(describing: identifier)
        case .header: "section:" + String(describing: identifier)
        case .spacer: "spacer:" + String(describing: identifier)
        }
    }
}

extension Hashable {
    /// Whether `other` is of this type and equal to this value.
    fileprivate func isSameRowIdentifier(as other: any Hashable) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }

    /// This value as an `AnyHashable`.
    fileprivate var erasedRowIdentifier: AnyHashable { AnyHashable(self) }
}
