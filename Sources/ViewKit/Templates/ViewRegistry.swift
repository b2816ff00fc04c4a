import Primitives
internal import Reactive

/// The view kinds templates can make: the one table the template compiler asks, like the custom classes Interface
/// Builder knows.
///
/// The framework fills it with its own kinds — `View`, `Label`, `Button`, `ImageView`, `StackView`, `ListView`,
/// `TableView`, `CollectionView`, `TextField`, `TextView`, `Switch`, `Picker` and `Form`, each under its own name — and
/// an app adds its own with ``register(_:as:)``; a template names a kind with `data-view="Name"`. Each kind reads its
/// own element (``View/templateConfiguration(from:)``): the compiler knows no list of kinds. An element without
/// `data-view` is the framework kind that claims it (a `<button>` with an action is a `Button`, an outlet on text a
/// `Label`), else a plain `View`.
///
/// Register an app's kinds before loading templates: a template naming an unknown kind fails to load, at start-up.
///
/// ```swift
/// let registry = ViewRegistry()
/// registry.register(MovieHeaderView.self, as: "MovieHeaderView")
/// let library = try TemplateLibrary(directory: "Templates", registry: registry)
/// ```
public final class ViewRegistry: Sendable {
    /// A registered kind: its class, and whether it owns the outlets of its content (an app's composite views do;
    /// the framework's kinds do not, so an outlet inside a framework `StackView` is its screen's).
    struct Kind: Sendable {
        let type: View.Type
        let ownsOutlets: Bool
    }

    private struct Table {
        var kinds: [String: Kind] = [:]
        /// The framework's kinds that may claim an element without `data-view`, in the order they are asked.
        var inferred: [View.Type] = []
    }

    private let table: Locked<Table>

    /// Creates a registry holding the framework's kinds.
    public init() {
        var table = Table()
        // The framework's kinds. Only these claim elements without `data-view`; no two claim the same element.
        let frameworkKinds: [(type: View.Type, isInferred: Bool)] = [
            (View.self, false), (Label.self, true), (Button.self, true), (ImageView.self, true),
            (StackView.self, false), (ListView.self, false), (TableView.self, false), (CollectionView.self, false),
            (TextField.self, true),
            (TextView.self, true),
            (Switch.self, true), (Picker.self, true), (FileField.self, true), (Form.self, true),
        ]
        for (type, isInferred) in frameworkKinds {
            table.kinds[String(describing: type)] = Kind(type: type, ownsOutlets: false)
            if isInferred { table.inferred.append(type) }
        }
        self.table = Locked(table)
    }

    /// Makes `type` available to templates as `data-view="name"`: a view kind of the app's.
    ///
    /// The kind reads its element by overriding ``View/templateConfiguration(from:)`` (and
    /// ``View/templateAttributes``), and owns the outlets of its content: its nib (`Views/<name>.html`) or the
    /// element's children compile in a scope of their own, checked against its ``View/outletTypes``. Registering a
    /// name again replaces the kind.
    public func register(_ type: View.Type, as name: String) {
        table.withLock { $0.kinds[name] = Kind(type: type, ownsOutlets: true) }
    }

    /// The kind registered as `name`.
    func kind(named name: String) -> Kind? {
        table.withLock { $0.kinds[name] }
    }

    /// The kind of an element without `data-view`: the framework kind that claims it, else a plain `View`.
    func inferredKind(of element: TemplateElement) -> Kind {
        let inferred = table.withLock { $0.inferred }
        let type = inferred.first { $0.isInferred(from: element) } ?? View.self
        return Kind(type: type, ownsOutlets: false)
    }
}
