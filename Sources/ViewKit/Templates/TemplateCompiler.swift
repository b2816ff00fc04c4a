/// Turns parsed markup into prototypes: resolves `data-view` classes, inlines nibs, gathers
/// outlets per scope, and reports every problem as a `TemplateError` with file and line.
struct TemplateCompiler {
    /// A nib: the markup of `Views/<Class>.html`.
    struct Nib {
        var file: String
        var nodes: [ParsedNode]
    }

    /// The outlets of one owner (a screen template, or a custom view's nib).
    struct Scope {
        var outlets: [String: (type: View.Type, line: Int)] = [:]
    }

    let registry: ViewRegistry
    let nibs: [String: Nib]

    func compile(_ nodes: [ParsedNode], file: String, scope: inout Scope, parentTag: String?, nibStack: [String])
        throws(TemplateError) -> [Prototype]
    {
        var prototypes: [Prototype] = []
        for node in nodes {
            switch node.kind {
            case .text(let text):
                if let prototype = Self.textPrototype(text, parentTag: parentTag, line: node.line) {
                    prototypes.append(prototype)
                }
            case .element:
                prototypes.append(try compileElement(node, file: file, scope: &scope, nibStack: nibStack))
            }
        }
        return prototypes
    }

    func compileElement(_ node: ParsedNode, file: String, scope: inout Scope, nibStack: [String])
        throws(TemplateError) -> Prototype
    {
        guard case .element(let tagName, let rawAttributes) = node.kind else {
            preconditionFailure("compileElement takes elements")
        }
        let outlet = node.attribute("data-outlet")
        // The parser keeps what it cannot make sense of in a tag name (NULs become U+FFFD, for one); a view's
        // element name must be one the renderer can write back.
        guard View.isValidName(tagName) else {
            throw TemplateError(
                file: file, line: node.line, outlet: outlet, message: "invalid element name \(tagName.debugDescription)"
            )
        }
        let element = TemplateElement(node: node, file: file)
        let viewName = node.attribute("data-view")
        let kind: ViewRegistry.Kind
        if let viewName {
            guard let registered = registry.kind(named: viewName) else {
                throw TemplateError(
                    file: file, line: node.line, outlet: outlet,
                    message: "unknown view class '\(viewName)' in data-view (register it in the ViewRegistry)")
            }
            kind = registered
        } else {
            kind = registry.inferredKind(of: element)
        }
        let viewType = kind.type

        if let outlet {
            if outlet.isEmpty || !View.isValidName(outlet) {
                throw TemplateError(file: file, line: node.line, outlet: outlet, message: "invalid outlet name")
            }
            if let first = scope.outlets[outlet] {
                throw TemplateError(
                    file: file, line: node.line, outlet: outlet,
                    message: "duplicate outlet (first defined at line \(first.line))")
            }
            scope.outlets[outlet] = (viewType, node.line)
        }

        // The kind reads its own element: what it takes is not rendered as the template gives it.
        var prototypeElement = Prototype.Element(
            viewType: viewType, tagName: tagName, attributes: [], explicitID: nil, classList: [], isHidden: false,
            accessibilityLabel: nil, accessibilityRole: nil,
            configuration: try viewType.templateConfiguration(from: element), isOutletScope: kind.ownsOutlets)
        var consumed = viewType.templateAttributes
        consumed.insert("data-view")

        for (name, value) in rawAttributes where !consumed.contains(name) {
            switch name {
            case "id": prototypeElement.explicitID = value
            case "class": prototypeElement.classList = ClassList([value])
            case "hidden": prototypeElement.isHidden = true
            case "aria-label": prototypeElement.accessibilityLabel = value
            case "role": prototypeElement.accessibilityRole = value
            default:
                guard View.isValidName(name) else {
                    throw TemplateError(
                        file: file, line: node.line, outlet: outlet, message: "invalid attribute name '\(name)'")
                }
                prototypeElement.attributes.append((name, value))
            }
        }

        var children: [Prototype] = []
        if viewType is TableView.Type {
            // A table's content is its cell prototypes, each made into cells on demand, with outlets of its own.
            let cells = try compileCellPrototypes(of: node, file: file, nibStack: nibStack)
            prototypeElement.configuration =
                (prototypeElement.configuration ?? TemplateConfiguration(View.self) { _ in })
                .followed(by: TemplateConfiguration(TableView.self) { $0.cellPrototypes = cells })
            prototypeElement.isOutletScope = true
        } else if kind.ownsOutlets, let viewName {
            if viewType.templateContentIsSubviews {
                children = try compileCustomContent(
                    of: node, viewName: viewName, viewType: viewType, file: file, nibStack: nibStack)
            } else {
                try Self.check(Scope(), against: viewType.outletTypes, file: file, owner: viewName)
            }
        } else if viewType.templateContentIsSubviews {
            children = try compile(node.children, file: file, scope: &scope, parentTag: tagName, nibStack: nibStack)
        }
        return Prototype(
            kind: .element(Prototype.ElementNode(prototypeElement)), children: children, line: node.line)
    }

    /// A table view's cell prototypes by reuse identifier: each child element with `data-cell`, compiled in a scope
    /// of its own. Anything else in the element (other than layout whitespace) is a mistake.
    private func compileCellPrototypes(of node: ParsedNode, file: String, nibStack: [String])
        throws(TemplateError) -> [String: Prototype]
    {
        var cells: [String: Prototype] = [:]
        for child in node.children {
            guard child.tagName != nil else {
                if Self.textPrototype(child.textContent, parentTag: node.tagName, line: child.line) != nil {
                    throw TemplateError(
                        file: file, line: child.line, outlet: node.attribute("data-outlet"),
                        message: "a TableView holds only cell prototypes (elements with data-cell), not text")
                }
                continue
            }
            guard let identifier = child.attribute("data-cell"), !identifier.isEmpty else {
                throw TemplateError(
                    file: file, line: child.line, outlet: node.attribute("data-outlet"),
                    message: "a TableView holds only cell prototypes: give <\(child.tagName ?? "")> a data-cell "
                        + "naming its reuse identifier")
            }
            guard cells[identifier] == nil else {
                throw TemplateError(
                    file: file, line: child.line, outlet: node.attribute("data-outlet"),
                    message: "two cell prototypes are named “\(identifier)”")
            }
            var cellScope = Scope()
            cells[identifier] = try compileElement(child, file: file, scope: &cellScope, nibStack: nibStack)
        }
        return cells
    }

    /// A custom view owns its outlets: its nib (or inline content) compiles in a scope of its own,
    /// checked against the outlets the class declares.
    private func compileCustomContent(
        of node: ParsedNode, viewName: String, viewType: View.Type, file: String, nibStack: [String]
    ) throws(TemplateError) -> [Prototype] {
        var ownScope = Scope()
        let children: [Prototype]
        let scopeFile: String
        if let nib = nibs[viewName] {
            if nibStack.contains(viewName) {
                throw TemplateError(
                    file: nib.file, line: node.line,
                    message: "nib includes itself: \((nibStack + [viewName]).joined(separator: " → "))")
            }
            if node.children.contains(where: { $0.tagName != nil }) {
                throw TemplateError(
                    file: file, line: node.line, outlet: node.attribute("data-outlet"),
                    message: "\(viewName) has a nib (\(nib.file)); leave the element empty")
            }
            scopeFile = nib.file
            children = try compile(
                nib.nodes, file: nib.file, scope: &ownScope, parentTag: node.tagName, nibStack: nibStack + [viewName])
        } else {
            scopeFile = file
            children = try compile(
                node.children, file: file, scope: &ownScope, parentTag: node.tagName, nibStack: nibStack)
        }
        try Self.check(ownScope, against: viewType.outletTypes, file: scopeFile, owner: viewName)
        return children
    }

    /// Checks a scope's outlets against the expected names and types.
    static func check(_ scope: Scope, against expected: [String: View.Type], file: String, owner: String)
        throws(TemplateError)
    {
        for (name, type) in expected.sorted(by: { $0.key < $1.key }) {
            guard let found = scope.outlets[name] else {
                throw TemplateError(
                    file: file, line: 0, outlet: name, message: "missing outlet \(owner) needs (a \(type))")
            }
            guard isSubclass(found.type, of: type) else {
                throw TemplateError(
                    file: file, line: found.line, outlet: name, message: "expected \(type), found \(found.type)")
            }
        }
    }

    static func isSubclass(_ type: View.Type, of expected: View.Type) -> Bool {
        var current: AnyClass? = type
        while let candidate = current {
            if ObjectIdentifier(candidate) == ObjectIdentifier(expected) { return true }
            current = _getSuperclass(candidate)
        }
        return false
    }

    // MARK: Text

    /// Whitespace-only text that holds a line break is layout of the source, not content: dropped.
    /// Other runs of whitespace collapse to one space, except where whitespace is significant.
    static func textPrototype(_ text: String, parentTag: String?, line: Int) -> Prototype? {
        switch parentTag {
        case "script", "style":
            return Prototype(kind: .text(text, isRaw: true), children: [], line: line)
        case "pre", "textarea":
            return Prototype(kind: .text(text, isRaw: false), children: [], line: line)
        default:
            if text.allSatisfy(\.isWhitespace) {
                if text.contains(where: \.isNewline) || text.isEmpty { return nil }
                return Prototype(kind: .text(" ", isRaw: false), children: [], line: line)
            }
            return Prototype(kind: .text(collapsedWhitespace(text), isRaw: false), children: [], line: line)
        }
    }

    static func collapsedWhitespace(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var inWhitespace = false
        for character in text {
            if character.isWhitespace {
                if !inWhitespace { result.append(" ") }
                inWhitespace = true
            } else {
                result.append(character)
                inWhitespace = false
            }
        }
        return result
    }

    static func collapsedText(_ text: String) -> String {
        let collapsed = collapsedWhitespace(text)
        guard let start = collapsed.firstIndex(where: { $0 != " " }),
            let end = collapsed.lastIndex(where: { $0 != " " })
        else { return "" }
        return String(collapsed[start...end])
    }
}
