/// Cells laid out side by side, in a grid that fills the width or in a strip that scrolls across, kept by item
/// identity (the spirit of UIKit's `UICollectionView` with a compositional or flow layout): a ``TableView`` in all
/// but its layout, fed by the same diffable data source (``CollectionViewDiffableDataSource``).
///
/// In a template, `data-view="CollectionView"` names it; `data-layout` is `grid` (the default: as many columns of at
/// least `data-item-width` pixels as fit, each line filling the width) or `strip` (one line of `data-item-width`-pixel
/// cells that scrolls sideways). Its cell prototypes are children marked `data-cell`, as in a table view. A grid may
/// be windowed (`data-window="N"`): its spacers span every column, and the page's script measures the cells' lines,
/// not the cells, to size them. The arrow keys move between cells by where they are on the screen (Left and Right to
/// the cell before and after, Up and Down to the nearest cell of the line above or below); Home, End, PageUp and
/// PageDown work as in a table view.
///
/// ```html
/// <ul data-view="CollectionView" data-layout="grid" data-item-width="180" data-outlet="posters"
///     aria-label="Posters">
///   <li data-cell="poster"><a data-outlet="link"><span data-outlet="title"></span></a></li>
/// </ul>
/// ```
///
/// ```swift
/// let dataSource = CollectionViewDiffableDataSource<Int, Movie.ID>(collectionView: posters) { collection, id in
///     let cell = collection.dequeueReusableCell(withReuseIdentifier: "poster")
///     cell.outlet("title", as: Label.self).text = movies[id]?.title ?? ""
///     return cell
/// }
/// ```
public final class CollectionView: TableView {
    /// How a collection view places its cells.
    public enum Layout: Sendable, Equatable {
        /// As many columns of at least `minimumItemWidth` pixels as fit the width, each line filling it; lines go
        /// down the page.
        case grid(minimumItemWidth: Int)
        /// One line of cells `itemWidth` pixels wide that scrolls sideways.
        case strip(itemWidth: Int)

        /// The width the layout gives its cells (a grid's least one, a strip's own).
        public var itemWidth: Int {
            switch self {
            case .grid(let width), .strip(let width): width
            }
        }

        /// The name the page's style sheet and script know the layout by (`data-collection`).
        var name: String {
            switch self {
            case .grid: "grid"
            case .strip: "strip"
            }
        }
    }

    /// The cell widths a template may give (`data-item-width`), in pixels.
    public static let itemWidths = 40...800

    /// How the cells are placed: a grid of 160-pixel columns unless the template or the app says otherwise. A strip
    /// is never windowed (a windowed table's spacers stand for lines down the page).
    public var layout: Layout {
        get { storedLayout }
        set {
            storedLayout = newValue
            renderLayout(LayoutAttributes(newValue))
        }
    }
    private var storedLayout: Layout = .grid(minimumItemWidth: 160)

    /// A layout's attributes as the page reads them (`data-collection` and the cells' width as a style property),
    /// and the text of their change as a template's attribute list remembers it. A template's configuration writes
    /// them once, when the template loads, not for every collection view made from it (Benchmarks/History/40).
    struct LayoutAttributes: Sendable {
        let name: String
        let style: String
        /// Both values: a space is in no attribute's name, so this change is never taken for a change of one.
        let change: String

        init(_ layout: Layout) {
            name = layout.name
            style = "--item-width: \(layout.itemWidth)px"
            change = name + " " + style
        }
    }

    /// The name of the change of both layout attributes at once, as a template's attribute list remembers it.
    private static let layoutChangeName = "data-collection style"

    /// Sets the layout a template gave, with its attributes written when the template loaded.
    func setLayout(_ layout: Layout, attributes: LayoutAttributes) {
        storedLayout = layout
        renderLayout(attributes)
    }

    /// Creates an empty collection view rendered as `<tagName>` (`<ul>` by default), in the default grid.
    public required init(tagName: String = "ul") {
        super.init(tagName: tagName)
        // The default grid's attributes, one list shared by every collection view (a template's configuration sets its
        // own layout right after): what `renderLayout(_:)` would make on a view without attributes.
        attributeList = Self.defaultLayoutAttributes.withPackedTag(packedTag)
        setNeedsRender()
    }

    private static let defaultLayoutAttributes = AttributeList(
        [("data-collection", "grid"), ("style", "--item-width: 160px")], packedTag: 0x6C75)

    /// A cell of the kind `identifier`, like UIKit's `dequeueReusableCell(withReuseIdentifier:for:)`: the same as a
    /// table view's ``TableView/dequeueReusableCell(withIdentifier:)``.
    public func dequeueReusableCell(withReuseIdentifier identifier: String) -> View {
        dequeueReusableCell(withIdentifier: identifier)
    }

    /// The layout as the page reads it: its name, and the cells' width as a style property the style sheet uses.
    ///
    /// Both attributes change as one change of the attribute list, which a template's list remembers (as it does one
    /// attribute's change): every collection view made from a template element with the same layout shares the list
    /// that change made, rather than making two lists and rendering their bytes on each page.
    private func renderLayout(_ layoutAttributes: LayoutAttributes) {
        // Every collection view of a template element makes the same change of the element's list: the list it made
        // the first time is remembered, and taken without working the attributes out again.
        if let remembered = attributeList.rememberedChange(Self.layoutChangeName, to: layoutAttributes.change) {
            attributeList = remembered
            setNeedsRender()
            return
        }
        var items = attributes
        var changed = false
        for (name, value) in [("data-collection", layoutAttributes.name), ("style", layoutAttributes.style)] {
            if let index = items.firstIndex(where: { $0.name == name }) {
                guard items[index].value != value else { continue }
                items[index].value = value
            } else {
                items.append((name, value))
            }
            changed = true
        }
        guard changed else { return }
        attributeList = attributeList.changing(
            Self.layoutChangeName, to: layoutAttributes.change, giving: items, isAttribute: false)
        setNeedsRender()
    }

    // MARK: Reading the template

    public override class var templateAttributes: Set<String> {
        super.templateAttributes.union(["data-layout", "data-item-width"])
    }

    public override class func templateConfiguration(from element: TemplateElement) throws(TemplateError)
        -> TemplateConfiguration?
    {
        let base = try super.templateConfiguration(from: element)
        let name = element.attribute("data-layout") ?? "grid"
        var width = 160
        if let text = element.attribute("data-item-width") {
            guard let value = Int(text), itemWidths.contains(value) else {
                throw element.error(
                    "data-item-width must be a width in pixels from \(itemWidths.lowerBound) to "
                        + "\(itemWidths.upperBound), not “\(text)”")
            }
            width = value
        }
        let layout: Layout
        switch name {
        case "grid": layout = .grid(minimumItemWidth: width)
        case "strip":
            guard element.attribute("data-window") == nil else {
                throw element.error(
                    "a strip (data-layout=\"strip\") cannot be windowed: remove data-window, or use a grid")
            }
            layout = .strip(itemWidth: width)
        default:
            throw element.error("data-layout must be “grid” or “strip”, not “\(name)”")
        }
        let attributes = LayoutAttributes(layout)
        let configuration = TemplateConfiguration(CollectionView.self) { $0.setLayout(layout, attributes: attributes) }
        return base?.followed(by: configuration) ?? configuration
    }
}

/// Feeds a ``CollectionView`` from snapshots of identifiers, like UIKit's `UICollectionViewDiffableDataSource`: the
/// table view's data source, whose diff, windowing and row actions a collection view shares.
public typealias CollectionViewDiffableDataSource<
    SectionIdentifier: Hashable & Sendable, ItemIdentifier: Hashable & Sendable
> = TableViewDiffableDataSource<SectionIdentifier, ItemIdentifier>

extension TableViewDiffableDataSource {
    /// Creates a data source that fills `collectionView` with the cells `cellProvider` makes, like UIKit's
    /// `UICollectionViewDiffableDataSource(collectionView:cellProvider:)`.
    public convenience init(
        collectionView: CollectionView, cellProvider: @escaping (CollectionView, ItemIdentifier) -> View
    ) {
        // The data source holds the collection view weakly and asks for cells only while it is there.
        self.init(tableView: collectionView) { [unowned collectionView] _, item in
            cellProvider(collectionView, item)
        }
    }
}
