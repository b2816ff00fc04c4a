import Foundation
import Primitives
import ViewKit

/// The header of a movie screen: a custom view with outlets in its nib, like the app's.
final class MovieHeaderView: View {
    private(set) var didAwake = false
    lazy var titleLabel: Label = outlet("titleLabel")
    lazy var yearLabel: Label = outlet("yearLabel")

    override class var outletTypes: [String: View.Type] { ["titleLabel": Label.self, "yearLabel": Label.self] }

    override func awakeFromNib() {
        didAwake = true
        yearLabel.text = "—"
    }
}

/// Directories the tests made, removed when the test process exits.
enum TemporaryDirectories {
    /// `Locked`, not `Mutex`: under ThreadSanitizer it takes a lock the sanitizer understands.
    private static let paths = Locked<[String]?>(nil)

    /// Removes `path` (and what is in it) when the process exits.
    static func removeAtExit(_ path: String) {
        paths.withLock { paths in
            if paths == nil {
                atexit { TemporaryDirectories.removeAll() }
                paths = []
            }
            paths?.append(path)
        }
    }

    private static func removeAll() {
        for path in paths.withLock({ $0 ?? [] }) { try? FileManager.default.removeItem(atPath: path) }
    }
}

enum Fixtures {
    /// `Tests/ViewKitTests/Fixtures`, found from this file so tests run from any directory.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures").path

    static func registry() -> ViewRegistry {
        let registry = ViewRegistry()
        registry.register(MovieHeaderView.self, as: "MovieHeaderView")
        return registry
    }

    static func library() throws -> TemplateLibrary {
        try TemplateLibrary(directory: directory, registry: registry())
    }

    /// A fresh temporary templates directory holding `files` (relative path → contents), removed when the test
    /// process exits (a test may read it after its library is made, so not sooner).
    static func temporaryTemplates(_ files: [String: String]) throws -> String {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("viewkit-templates-\(UUID().uuidString)")
        TemporaryDirectories.removeAtExit(directory.path)
        for (path, contents) in files {
            let url = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url)
        }
        return directory.path
    }

    /// The template `Screen` holding `markup`, and the template's tree of views.
    static func screenTemplate(_ markup: String) throws -> Template {
        try TemplateLibrary(directory: try temporaryTemplates(["Screen.html": markup]), registry: registry())
            .template(named: "Screen")
    }

    /// The id of the element a change replaces, or nil for another kind of change.
    static func replacedID(_ change: ViewChange) -> String? {
        if case .replace(let id, _) = change { return id }
        return nil
    }

    /// A `<ul>` table of movie cells (a title, and `cellExtra` after it) in a `<main>`, with `attributes` on the
    /// table, and its diffable data source, whose cells show "Movie <id>" as their title.
    static func movieTable(attributes: String = "", cellExtra: String = "") throws -> (
        root: View, table: TableView, source: TableViewDiffableDataSource<Int, Int>
    ) {
        let library = try TemplateLibrary(
            directory: try temporaryTemplates([
                "Screen.html": """
                <main><ul data-view="TableView" data-outlet="table"\(attributes)>
                  <li data-cell="movie"><span data-outlet="title"></span>\(cellExtra)</li>
                </ul></main>
                """
            ]), registry: ViewRegistry())
        let root = try library.template(named: "Screen").instantiate()
        let table: TableView = root.outlet("table")
        let source = TableViewDiffableDataSource<Int, Int>(tableView: table) { table, id in
            let cell = table.dequeueReusableCell(withIdentifier: "movie")
            cell.outlet("title", as: Label.self).text = "Movie \(id)"
            return cell
        }
        return (root, table, source)
    }
}

extension View {
    /// The subtree's HTML as a string, rendered with the default context.
    var html: String { String(decoding: renderHTML(context: RenderContext()), as: UTF8.self) }
}
