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
        let viewName = node.attribute("data-view")
        let viewType: View.Type
        if let viewName {
            guard let registered = registry.type(named: viewName) else {
                throw TemplateError(
                    file: file, line: node.line, outlet: outlet,
                    message: "unknown view class '\(viewName)' in data-view (register it in the ViewRegistry)")
            }
            viewType = registered
        } else {
            viewType = Self.inferredType(of: node)
        }
        let isCustom = viewName != nil && !Self.builtInNames.contains(viewName!)

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

        var element = Prototype.Element(
            viewType: viewType, tagName: tagName, attributes: [], explicitID: nil, classList: [], isHidden: false,
            accessibilityLabel: nil, accessibilityRole: nil, configuration: .none, isOutletScope: isCustom)
        var consumed: Set<String> = ["data-view"]
        if viewType is Label.Type {
            element.configuration = .label(text: Self.collapsedText(node.textContent))
        } else if viewType is Button.Type {
            element.configuration = .button(
                title: Self.collapsedText(node.textContent), actionName: node.attribute("data-action") ?? "",
                isEnabled: node.attribute("disabled") == nil)
            consumed.formUnion(["data-action", "disabled", "type"])
        } else if viewType is ImageView.Type {
            element.configuration = .image(
                alternativeText: node.attribute("alt") ?? "", placeholder: node.attribute("src"),
                loadsEagerly: node.attribute("loading") == "eager")
            consumed.formUnion(["alt", "src", "loading", "decoding"])
        } else if viewType is StackView.Type {
            let axis = StackView.Axis(rawValue: node.attribute("data-axis") ?? "vertical")
            guard let axis else {
                throw TemplateError(
                    file: file, line: node.line, outlet: outlet, message: "data-axis must be horizontal or vertical")
            }
            element.configuration = .stack(axis: axis, spacing: Int(node.attribute("data-spacing") ?? "0") ?? 0)
            consumed.formUnion(["data-axis", "data-spacing"])
        } else if viewType is Field.Type {
            element.configuration = .field(
                try Self.fieldConfiguration(of: node, viewType: viewType, outlet: outlet, file: file))
            consumed.formUnion([
                "name", "data-label", "value", "disabled", "type", "placeholder", "inputmode", "checked",
            ])
        } else if viewType is Form.Type {
            element.configuration = .form(defaultAction: node.attribute("data-action"))
            consumed.formUnion(["data-action", "method", "action"])
        }

        for (name, value) in rawAttributes where !consumed.contains(name) {
            switch name {
            case "id": element.explicitID = value
            case "class": element.classList = ClassList([value])
            case "hidden": element.isHidden = true
            case "aria-label": element.accessibilityLabel = value
            case "role": element.accessibilityRole = value
            default:
                guard View.isValidName(name) else {
                    throw TemplateError(
                        file: file, line: node.line, outlet: outlet, message: "invalid attribute name '\(name)'")
                }
                element.attributes.append((name, value))
            }
        }

        var children: [Prototype] = []
        let takesChildren =
            !(viewType is Label.Type || viewType is Button.Type || viewType is ImageView.Type
            || viewType is Field.Type)
        if isCustom, let viewName {
            children = try compileCustomContent(
                of: node, viewName: viewName, viewType: viewType, file: file, nibStack: nibStack)
        } else if takesChildren {
            children = try compile(node.children, file: file, scope: &scope, parentTag: tagName, nibStack: nibStack)
        }
        return Prototype(kind: .element(Prototype.ElementNode(element)), children: children, line: node.line)
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

    // MARK: Fields

    /// A field's values from its element: its name (the outlet's unless `name` says), its label (`data-label`, or
    /// `aria-label` alone), and its kind's own.
    static func fieldConfiguration(of node: ParsedNode, viewType: View.Type, outlet: String?, file: String)
        throws(TemplateError) -> Prototype.FieldConfiguration
    {
        let label = node.attribute("data-label") ?? ""
        guard !label.isEmpty || node.attribute("aria-label") != nil else {
            throw TemplateError(
                file: file, line: node.line, outlet: outlet,
                message: "a field needs a label: add data-label=\"…\" (or aria-label=\"…\" where no label shows)")
        }
        guard let name = node.attribute("name") ?? outlet, !name.isEmpty else {
            throw TemplateError(
                file: file, line: node.line, outlet: outlet, message: "a field needs a name or a data-outlet")
        }
        var configuration = Prototype.FieldConfiguration(
            name: name, label: label, isEnabled: node.attribute("disabled") == nil, text: node.attribute("value") ?? "",
            placeholder: node.attribute("placeholder") ?? "", kind: .text, keyboardType: node.attribute("inputmode"),
            isOn: node.attribute("checked") != nil, options: [], selectedIndex: nil)
        if viewType is TextField.Type {
            let type = node.attribute("type")?.lowercased() ?? "text"
            guard let kind = TextField.Kind(rawValue: type) else {
                throw TemplateError(
                    file: file, line: node.line, outlet: outlet,
                    message: "a TextField's type is one of \(TextField.Kind.allCases.map(\.rawValue)), not '\(type)'")
            }
            configuration.kind = kind
        } else if viewType is TextView.Type {
            configuration.text =
                node.textContent.hasPrefix("\n") ? String(node.textContent.dropFirst()) : node.textContent
        } else if viewType is Picker.Type {
            for option in node.children where option.tagName == "option" {
                let title = collapsedText(option.textContent)
                if option.attribute("selected") != nil { configuration.selectedIndex = configuration.options.count }
                configuration.options.append(Picker.Option(value: option.attribute("value") ?? title, title: title))
            }
            if configuration.selectedIndex == nil && !configuration.options.isEmpty { configuration.selectedIndex = 0 }
        }
        return configuration
    }

    // MARK: Inference and text

    static let builtInNames: Set<String> = [
        "View", "Label", "Button", "ImageView", "StackView", "ListView", "TextField", "TextView", "Switch", "Picker",
        "Form",
    ]

    /// Elements whose text-only content makes an outlet a `Label`.
    static let textTags: Set<String> = [
        "h1", "h2", "h3", "h4", "h5", "h6", "p", "span", "label", "strong", "em", "small", "b", "i", "a", "li", "dt",
        "dd", "td", "th", "figcaption", "caption", "title", "time", "code", "pre", "q", "cite", "mark", "output",
        "legend", "summary", "abbr", "blockquote", "data", "bdi",
    ]

    /// The class of an element without `data-view`: buttons with an outlet or action are buttons,
    /// images with an outlet are image views, text-only outlets are labels, the rest plain views.
    static func inferredType(of node: ParsedNode) -> View.Type {
        guard let tagName = node.tagName else { return View.self }
        let hasOutlet = node.attribute("data-outlet") != nil
        if tagName == "button" && (hasOutlet || node.attribute("data-action") != nil) { return Button.self }
        if tagName == "form" && node.attribute("method")?.lowercased() != "get" { return Form.self }
        guard hasOutlet else { return View.self }
        switch tagName {
        case "input": return node.attribute("type")?.lowercased() == "checkbox" ? Switch.self : TextField.self
        case "textarea": return TextView.self
        case "select": return Picker.self
        default: break
        }
        if tagName == "img" { return ImageView.self }
        if textTags.contains(tagName) && !node.children.contains(where: { $0.tagName != nil }) { return Label.self }
        return View.self
    }

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
