import FoundationEssentials

/// The templates of an app, parsed once at start-up (storyboards and nibs).
///
/// Loads every `*.html` in `directory` as a template named after its file, and every
/// `Views/*.html` as the nib of the registered view class of the same name (also available as
/// the template `Views/<Class>`, which makes one such view). `layout.html`, or any file starting
/// with `<!DOCTYPE`, is parsed as a whole document (its root is the `<html>` element); other
/// templates as body fragments with exactly one root element.
///
/// Every problem — unknown `data-view` class, duplicate outlet, a custom view's missing or mistyped
/// outlet, several roots — throws a `TemplateError` here, at start-up.
///
/// ```swift
/// let library = try TemplateLibrary(directory: "Templates", registry: registry)
/// let detail = try library.template(named: "MovieDetail").instantiate()
/// ```
public final class TemplateLibrary: Sendable {
    /// The templates' names, for look-ups by name.
    private let names: NameTable
    /// The templates, at their names' positions in `names`.
    private let templatesInOrder: [Template]
    /// The templates' names in increasing order (`String`'s `<`).
    private let sortedNames: [String]
    /// The folder the templates were read from, for messages.
    private let directory: String

    /// Loads and checks every template in `directory`.
    ///
    /// `builtIns` are templates (name → source) a framework brings, each used when `directory` has no file of that
    /// name (the screens a framework brings, say). The layout is `layout.html`, else a built-in `layout` (a framework's page
    /// shell), else there is none; `layoutHead` is markup put first in its `<head>` (a framework's own script and
    /// stylesheet).
    public init(
        directory: String, registry: ViewRegistry, layoutHead: String = "", builtIns: [String: String] = [:]
    ) throws {
        let fileManager = FileManager.default
        func htmlFiles(in path: String) -> [String] {
            let names = (try? fileManager.contentsOfDirectory(atPath: path)) ?? []
            return names.filter { $0.hasSuffix(".html") }.sorted()
        }
        func read(_ relative: String) throws -> String {
            let path = directory + "/" + relative
            guard let data = fileManager.contents(atPath: path) else {
                throw TemplateError(file: relative, line: 0, message: "cannot read \(path)")
            }
            return String(decoding: data, as: UTF8.self)
        }
        var isDirectory = false
        guard fileManager.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory else {
            throw TemplateError(file: directory, line: 0, message: "templates directory not found")
        }

        var nibs: [String: TemplateCompiler.Nib] = [:]
        for fileName in htmlFiles(in: directory + "/Views") {
            let file = "Views/" + fileName
            nibs[String(fileName.dropLast(5))] = TemplateCompiler.Nib(
                file: file, nodes: HTMLParser.parseFragment(try read(file)))
        }
        let compiler = TemplateCompiler(registry: registry, nibs: nibs)

        var templates: [String: Template] = [:]
        for fileName in htmlFiles(in: directory) {
            let name = String(fileName.dropLast(5))
            var source = try read(fileName)
            if name == "layout" && !layoutHead.isEmpty { source = Self.inserting(layoutHead, intoHeadOf: source) }
            templates[name] = try Self.compileTemplate(name: name, file: fileName, source: source, compiler: compiler)
        }
        for (name, source) in builtIns.sorted(by: { $0.key < $1.key }) where templates[name] == nil {
            let source =
                name == "layout" && !layoutHead.isEmpty ? Self.inserting(layoutHead, intoHeadOf: source) : source
            templates[name] = try Self.compileTemplate(
                name: name, file: name == "layout" ? "layout.html" : "(built-in \(name).html)", source: source,
                compiler: compiler)
        }
        for (className, nib) in nibs.sorted(by: { $0.key < $1.key }) {
            let placeholder = ParsedNode(
                kind: .element(tagName: "div", attributes: [("data-view", className)]), children: [], line: 1)
            guard registry.kind(named: className) != nil else {
                throw TemplateError(
                    file: nib.file, line: 0, message: "no view class registered as '\(className)' for this nib")
            }
            var scope = TemplateCompiler.Scope()
            let root = try compiler.compileElement(placeholder, file: nib.file, scope: &scope, nibStack: [])
            let name = "Views/" + className
            templates[name] = Template(name: name, file: nib.file, root: root, outlets: scope.outlets)
        }
        names = NameTable(templates.keys)
        templatesInOrder = names.names.compactMap { templates[$0] }
        sortedNames = templates.keys.sorted()
        self.directory = directory
    }

    /// `source` with `markup` right after its `<head>` start tag (or before everything, without one): first, so the
    /// app's own stylesheets, after it, override the framework's.
    static func inserting(_ markup: String, intoHeadOf source: String) -> String {
        guard let start = source.firstRange(of: #/<head/#.ignoresCase()),
            let end = source[start.upperBound...].firstIndex(of: ">")
        else { return markup + source }
        let after = source.index(after: end)
        return String(source[..<after]) + markup + String(source[after...])
    }

    /// Compiles one screen template or layout.
    static func compileTemplate(name: String, file: String, source: String, compiler: TemplateCompiler)
        throws(TemplateError) -> Template
    {
        var scope = TemplateCompiler.Scope()
        let isDocument =
            name == "layout"
            || source.drop(while: \.isWhitespace).prefix(9).lowercased() == "<!doctype"
        let root: Prototype
        if isDocument {
            guard let html = HTMLParser.parseDocument(source) else {
                throw TemplateError(file: file, line: 0, message: "cannot parse the document")
            }
            root = try compiler.compileElement(html, file: file, scope: &scope, nibStack: [])
        } else {
            let nodes = HTMLParser.parseFragment(source)
            let elements = nodes.filter { $0.tagName != nil }
            guard elements.count == 1, let element = elements.first else {
                throw TemplateError(
                    file: file, line: elements.dropFirst().first?.line ?? 0,
                    message: "a template needs exactly one root element, found \(elements.count)")
            }
            root = try compiler.compileElement(element, file: file, scope: &scope, nibStack: [])
        }
        return Template(name: name, file: file, root: root, outlets: scope.outlets)
    }

    /// The template named `name` (its file name without `.html`).
    ///
    /// - Throws: `TemplateError` when there is no such template.
    public func template(named name: String) throws(TemplateError) -> Template {
        guard let index = names.position(of: name) else {
            let near = zip(names.names, templatesInOrder).filter { name, template in
                !name.hasPrefix("Views/") && name != "layout" && !template.file.hasPrefix("(built-in")
            }.map(\.0).sorted()
            throw TemplateError(
                file: name + ".html", line: 0,
                message: "no such template: looked for \(directory)/\(name).html"
                    + " (there: \(near.joined(separator: ", "))); name the file after the view controller without its ViewController suffix, or override"
                    + " templateName")
        }
        return templatesInOrder[index]
    }

    /// The names of all templates, sorted.
    public var templateNames: [String] { sortedNames }
}
