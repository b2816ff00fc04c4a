internal import Reactive

// MARK: - Attributes

extension View {
    var explicitID: String? {
        get { rare?.explicitID }
        set { if newValue != nil || rare != nil { rareState.explicitID = newValue } }
    }

    /// The accessible name, rendered as `aria-label`.
    public var accessibilityLabel: String? {
        get { rare?.accessibilityLabel }
        set {
            guard newValue != rare?.accessibilityLabel else { return }
            rareState.accessibilityLabel = newValue
            setNeedsRender()
        }
    }

    /// The ARIA role, rendered as `role` (for example `"status"` or `"navigation"`).
    public var accessibilityRole: String? {
        get { rare?.accessibilityRole }
        set {
            guard newValue != rare?.accessibilityRole else { return }
            rareState.accessibilityRole = newValue
            setNeedsRender()
        }
    }

    /// The value of the attribute `name`, or `nil` when it is not set.
    ///
    /// `id`, `class`, `hidden`, `aria-label` and `role` read the matching properties.
    public func attribute(_ name: String) -> String? {
        switch name {
        case "id": return domID
        case "class": return classList.isEmpty ? nil : classList.value
        case "hidden": return isHidden ? "" : nil
        case "aria-label": return accessibilityLabel
        case "role": return accessibilityRole
        default: return attributes.first { $0.name == name }?.value
        }
    }

    /// Sets the attribute `name` to `value`, or removes it when `value` is `nil`.
    ///
    /// An empty value renders in the boolean form (`disabled`). `class`, `hidden`, `aria-label` and
    /// `role` set the matching properties; `id` replaces the generated DOM id and must be unique in
    /// the page. Names must be valid attribute names (letters, digits, `-`, `_`, `:`, `.`).
    public func setAttribute(_ name: String, _ value: String?) {
        // A view still on its template's list making a change the list made lately (each cell of a prototype linking
        // to the movies the cells of other screens link to): the list that change made, without the items worked out
        // and let go. Only an attribute's change is taken here, and one is remembered only after its name was checked
        // and found to be none of the names below; a remembered change is never a no-op and never empties the list.
        if let remembered = attributeList.rememberedAttributeChange(name, to: value) {
            self.attributeList = remembered
            setNeedsRender()
            return
        }
        guard Self.isValidName(name) else {
            ProgrammerErrors.report(
                ProgrammerError(
                    mistake: "View.setAttribute was given “\(name)”, which is not an attribute name; nothing was set.",
                    fix: "use letters, digits, -, _, : and . only (“data-kind”, “aria-expanded”)."))
            return
        }
        // A valid name is ASCII: compared as a name, by its length first (``Swift/String/isSameName(as:)``), it
        // matches what `==` matches, and other names do not call into the string comparison five times.
        if name.isSameName(as: "class") {
            classList = ClassList(value.map { [$0] } ?? [])
        } else if name.isSameName(as: "hidden") {
            isHidden = value != nil
        } else if name.isSameName(as: "aria-label") {
            accessibilityLabel = value
        } else if name.isSameName(as: "role") {
            accessibilityRole = value
        } else if name.isSameName(as: "id") {
            explicitID = value
            setNeedsRender()
        } else {
            var items = attributes
            if let index = items.firstIndex(where: { $0.name.isSameName(as: name) }) {
                if let value {
                    guard items[index].value != value else { return }
                    items[index].value = value
                } else {
                    items.remove(at: index)
                }
            } else if let value {
                items.append((name, value))
            } else {
                return
            }
            attributeList = attributeList.changing(name, to: value, giving: items, isAttribute: true)
            setNeedsRender()
        }
    }

    /// Gives a fresh view (no superview, no handler, not confined) its template element's state
    /// without the setters' checks: the same outcome as setting each property, including the
    /// render mark that any class, `hidden` or ARIA value would have set (in `templateFlags`, with `hidden` and the
    /// outlet scope, as the prototype worked them out from its element).
    ///
    /// The element's list carries its attributes and class list; the view keeps its own name (a kind that renders
    /// another element than its template's, as a button renders a `<form>`, gets the list's copy with that name,
    /// one for the template's views).
    final func adoptTemplateState(flags templateFlags: UInt8, attributes: AttributeList, rare shared: RareState?) {
        // The element's values are the prototype's, worked out once: reading them through its node retained and
        // released the node for every element of every page (Benchmarks/History/47).
        attributeList = attributes.withPackedTag(packedTag)
        if let shared {
            if let own = rare, !own.isShared {  // set up by a subclass's initializer
                own.takeTemplateValues(of: shared)
            } else {
                rare = shared
            }
        }
        flags = (flags & ~(Self.hiddenFlag | Self.outletScopeFlag)) | templateFlags
    }

    /// ``adoptTemplateState(flags:attributes:rare:)`` for a view made from its element's compiled list
    /// (``init(templateList:)``, a plain view's or a label's): the view has the list already, and no rare state of
    /// its own yet.
    final func adoptCompiledTemplateState(flags templateFlags: UInt8, rare shared: RareState?) {
        if let shared { rare = shared }
        flags = (flags & ~(Self.hiddenFlag | Self.outletScopeFlag)) | templateFlags
    }
}
