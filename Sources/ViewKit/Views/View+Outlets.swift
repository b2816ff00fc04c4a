internal import Reactive

// MARK: - Outlets and templates

extension View {
    /// The view named `name` by a `data-outlet` attribute in this view's scope, or `nil`. Names match when they are
    /// the same name (``Swift/String/isSameName(as:)``): for a template's ASCII names, the same bytes.
    ///
    /// The search covers this view's subtree but does not enter custom views created from
    /// `data-view` (their nib outlets are theirs); such a view itself can be found.
    public func outletIfPresent(_ name: String) -> View? {
        // Custom views and binders read outlets on every update, so a look-up walks the tree in
        // place: no stack array, and the attribute list scanned directly.
        let length = name.utf8.count
        return liveSubviews.firstResult { $0.outletInSubtree(name, length: length) }
    }

    /// Whether this view's `data-outlet` attribute is `name`: the same name (``Swift/String/isSameName(as:)``, the
    /// same bytes for a template's ASCII names).
    package final func isOutlet(named name: String) -> Bool {
        isOutlet(named: name, length: name.utf8.count)
    }

    /// ``isOutlet(named:)`` with `name`'s length in UTF-8 (`length`) worked out by the caller, once for the views it
    /// compares: a name of another length is told apart by the lengths alone.
    @inline(__always)
    package final func isOutlet(named name: String, length: Int) -> Bool {
        let list = attributeList
        guard let outletName = list.outletName, list.outletNameHasLength(length) else { return false }
        return outletName == name
    }

    /// Where among `views` the outlet `name` is (``isOutlet(named:)``): `hint` when that view is it, else the first
    /// such view's index, or nil. For a view controller's remembered outlets: the scan runs here, where each view's
    /// name is compared in place, not through a call for each view from another module, which retained and
    /// released the view around it.
    package static func indexOfOutlet(named name: String, in views: [View], tryingFirst hint: Int) -> Int? {
        let length = name.utf8.count
        if hint < views.count, views[hint].isOutlet(named: name, length: length) { return hint }
        return views.firstIndex { $0.isOutlet(named: name, length: length) }
    }

    /// This view when it is the outlet `name` (`length` bytes long in UTF-8), else the first such view below it (in
    /// document order) short of custom views' nibs.
    final func outletInSubtree(_ name: String, length: Int) -> View? {
        if isOutlet(named: name, length: length) { return self }
        guard !isOutletScope else { return nil }
        return liveSubviews.firstResult { $0.outletInSubtree(name, length: length) }
    }

    /// Appends to `views` every outlet of this view's scope that ``outletIfPresent(_:)`` would find by its name (the
    /// first view in document order bearing it), but for names `views` holds already, in one walk of the scope: for a
    /// reader of several outlets of one view, such as a view controller reading its declared ones
    /// (Benchmarks/History/44).
    package final func gatherOutlets(into views: inout [View]) {
        liveSubviews.forEach { $0.gatherOutletsInSubtree(into: &views) }
    }

    /// ``gatherOutlets(into:)`` for this view and its subtree: the same views, in the same order, as
    /// ``outletInSubtree(_:length:)`` visits them.
    private final func gatherOutletsInSubtree(into views: inout [View]) {
        if let name = attributeList.outletName {
            let length = name.utf8.count
            if !views.contains(where: { $0.isOutlet(named: name, length: length) }) { views.append(self) }
        }
        guard !isOutletScope else { return }
        liveSubviews.forEach { $0.gatherOutletsInSubtree(into: &views) }
    }

    /// The view named `name` by `data-outlet`, as a `V`. A missing outlet or another type is a programmer error
    /// (templates are validated at start-up, so it shows in the first test, not at a user's request): it is
    /// reported, naming the outlet, and a detached view of the type stands in, so the screen fails and the process
    /// goes on.
    ///
    /// ```swift
    /// let backButton: Button = view.outlet("backButton")
    /// ```
    public func outlet<V: View>(_ name: String, as type: V.Type = V.self) -> V {
        guard let view = outletIfPresent(name) else {
            ProgrammerErrors.report(
                ProgrammerError(
                    mistake: "The outlet '\(name)' was not found under <\(tagName)> (\(Self.self)).",
                    fix: "mark the element with data-outlet=\"\(name)\" in the template, or read the outlet it has."))
            return V(tagName: "div")
        }
        guard let typed = view as? V else {
            ProgrammerErrors.report(
                ProgrammerError(
                    mistake: "The outlet '\(name)' is a \(Swift.type(of: view)), not a \(V.self).",
                    fix: "declare it as a \(Swift.type(of: view)), or change the element in the template."))
            return V(tagName: "div")
        }
        return typed
    }
}
