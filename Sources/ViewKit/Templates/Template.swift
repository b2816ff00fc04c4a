/// A parsed template (a storyboard scene or a nib): an immutable prototype that makes fresh view
/// trees. Safe to share between threads; each instantiated tree belongs to one screen.
///
/// ```swift
/// let template = try library.template(named: "MovieDetail")
/// try template.validate(outlets: ["backButton": Button.self, "headerView": MovieHeaderView.self])
/// let root = template.instantiate()
/// let backButton: Button = root.outlet("backButton")
/// ```
public final class Template: Sendable {
    /// The template's name: its file name without `.html` (`"MovieDetail"`, `"Views/MovieHeaderView"`).
    public let name: String
    /// The template's file, relative to the templates directory.
    public let file: String

    private let root: Prototype
    private let outlets: [String: (type: View.Type, line: Int)]
    /// The keys of `outlets`, for ``hasOutlet(_:)``.
    private let outletNames: NameTable

    init(name: String, file: String, root: Prototype, outlets: [String: (type: View.Type, line: Int)]) {
        self.name = name
        self.file = file
        self.root = root
        self.outlets = outlets
        outletNames = NameTable(outlets.keys)
    }

    /// Creates a fresh view tree: registered classes for `data-view` elements with their nibs
    /// inlined, plain views for other elements, and markup no code can reach kept as shared markup until a view is
    /// asked for its subviews (see ``View/subviews``). Each view's `awakeFromNib()` has run.
    public func instantiate() -> View {
        root.instantiate()
    }

    /// The template's outlets (not those inside custom views' nibs) and their view classes.
    public var outletTypes: [String: View.Type] {
        outlets.mapValues(\.type)
    }

    /// Whether the template has an outlet `name` (a search of its outlets' names: no tree is walked).
    public func hasOutlet(_ name: String) -> Bool {
        outletNames.position(of: name) != nil
    }

    /// Checks that every expected outlet exists with a compatible class.
    ///
    /// - Throws: `TemplateError` naming the file, the line and the outlet, for a missing outlet or
    ///   one whose class is not the expected class or a subclass of it.
    public func validate(outlets expected: [String: View.Type]) throws(TemplateError) {
        try TemplateCompiler.check(
            TemplateCompiler.Scope(outlets: outlets), against: expected, file: file, owner: name)
    }
}
