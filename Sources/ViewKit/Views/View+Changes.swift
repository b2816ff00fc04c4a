public import Reactive

// MARK: - Dirty tracking

extension View {
    /// Called on the root view when its tree goes from clean to dirty, once until the changes are taken.
    public var invalidationHandler: (() -> Void)? {
        get { rare?.invalidationHandler }
        set { if newValue != nil || rare != nil { rareState.invalidationHandler = newValue } }
    }

    // MARK: Confinement

    var confinement: ScreenScheduler? {
        get { rare?.confinement }
        set {
            if newValue != nil || rare != nil {
                rareState.confinement = newValue
                rareState.confinementKey = newValue?.confinementKey
            }
        }
    }

    /// Confines this tree (call it on the root) to `scheduler`: from now on, changing a view of the
    /// tree, taking its changes or rendering it anywhere else stops the process with a message
    /// naming the scheduler, like GRDB's queue watchdog. Costs one thread-local look-up per change.
    ///
    /// ```swift
    /// let root = template.instantiate()
    /// root.confine(to: screenScheduler)
    /// ```
    public func confine(to scheduler: ScreenScheduler) {
        confinement = scheduler
    }

    func checkConfinement(_ what: @autoclosure () -> String) {
        // The scheduler's key compared with the thread's, not the scheduler itself asked: asking retains and releases
        // it, and a scheduler's count is kept in a side table (its lane holds it weakly), on every change, flush and
        // render of every screen.
        guard let key = rootConfinementKey, !key.isCurrent else { return }
        unretainedRoot.confinement?.assertCurrent("\(what()) (<\(tagName)> in a confined view tree)")
    }

    /// The root's ``ScreenScheduler/confinementKey``, read where the root is reached (``unretainedRoot``'s walk),
    /// so that neither the root nor its rare state is retained and released for it: every change and every taking
    /// of changes asks, on every screen of a fan-out. `Unmanaged` as in that walk, sound for the same reason (a parent
    /// outlives its link, and `self` is held by the caller); receipt: step 3 of
    /// Benchmarks/History/62-fan-out-screens-3.md.
    private var rootConfinementKey: ScreenKey? {
        var node = Unmanaged.passUnretained(self)
        while let next = node._withUnsafeGuaranteedRef({ $0.parentLink }) { node = next }
        return node._withUnsafeGuaranteedRef { $0.rare?.confinementKey }
    }

    /// Marks this view (and so its subtree) for rendering; property setters call it.
    ///
    /// A view the page still shows as a template's static markup, without its id, marks its superview instead. A view
    /// of a tree rendered once (``buildingForOneRender(_:)``) is marked alone: nothing above it, and no handler.
    public func setNeedsRender() {
        guard !needsRender else { return }
        // Up the parent links: a container kept as markup has no id on the page and no view to mark.
        if isStaticMarkupOnPage, let parent { return parent.setNeedsRender() }
        checkConfinement("Changing a view")
        // A tree rendered once: the view alone is marked.
        guard recordsChanges else {
            needsRender = true
            return
        }
        let wasClean = parent == nil && !hasDirtyDescendant
        needsRender = true
        if wasClean {
            invalidationHandler?()
        } else {
            parent?.markDirtyDescendant(below: self)
        }
    }

    /// Records that something below this view changed, up to the root: below `child` (one of its subviews), or
    /// anywhere below it when `child` is `nil`.
    func markDirtyDescendant(below child: View? = nil) {
        // A tree rendered once records no path to its changes (``buildingForOneRender(_:)``).
        guard recordsChanges else { return }
        // Up the parent links without retaining each ancestor (a label's change walks to the root on every screen
        // of a fan-out): a parent outlives its link, and `self` and `child` are held by the caller.
        var current = Unmanaged.passUnretained(self)
        var from = child.map { Unmanaged.passUnretained($0) }
        while true {
            let reachedRoot = current._withUnsafeGuaranteedRef { view -> Bool in
                if view.hasDirtyDescendant {
                    // The path above is marked already; the slot names this child or there are now two.
                    if view.dirtyChild != Self.anyDirtyChild && view.dirtyChildIndex(of: from) != view.dirtyChild {
                        view.dirtyChild = Self.anyDirtyChild
                    }
                    return true
                }
                view.hasDirtyDescendant = true
                view.dirtyChild = view.dirtyChildIndex(of: from)
                guard let parent = view.parentLink else {
                    if !view.needsRender { view.invalidationHandler?() }
                    return true
                }
                from = current
                current = parent
                return false
            }
            if reachedRoot { return }
        }
    }

    /// ``markDirtyDescendant(below:)`` for the subview at `index`, named by its place rather than found among the
    /// subviews.
    func markDirtyDescendant(belowSubviewAt index: Int) {
        guard recordsChanges else { return }
        let slot = index < Int(Self.anyDirtyChild) ? UInt16(index) : Self.anyDirtyChild
        if hasDirtyDescendant {
            // The path above is marked already; the slot names this child or there are now two.
            if dirtyChild != Self.anyDirtyChild && dirtyChild != slot { dirtyChild = Self.anyDirtyChild }
            return
        }
        hasDirtyDescendant = true
        dirtyChild = slot
        guard let parent else {
            if !needsRender { invalidationHandler?() }
            return
        }
        parent.markDirtyDescendant(below: self)
    }

    /// The index of `child` among the subviews as a dirty-child slot: `anyDirtyChild` for `nil`, for a view that is
    /// not a subview, or past the slot's range. Compares references only; the subviews are not touched.
    ///
    /// The child's ``indexHint`` is tried first, in the caller (a label's change asks on every level up to its root,
    /// on every screen of a fan-out); the subviews are searched only when it names another view (siblings inserted or
    /// removed since), and the index found becomes the hint. Receipt: step 3 of
    /// Benchmarks/History/78-fan-out-screens-8.md. `child` is unretained as in the walk that passes it (the view the
    /// walk came up from, alive for the call: a parent outlives its link); its hint is read and written in place,
    /// on the tree's scheduler, and a wrong hint only costs the search.
    @inline(__always)
    func dirtyChildIndex(of child: Unmanaged<View>?) -> UInt16 {
        guard let child else { return Self.anyDirtyChild }
        let target = child.toOpaque()
        let hint = Int(child._withUnsafeGuaranteedRef { $0.indexHint })
        let hit = liveSubviews.withViews { subviews in
            hint < subviews.count && Unmanaged.passUnretained(subviews[hint]).toOpaque() == target
        }
        return hit ? UInt16(hint) : searchedChildIndex(of: child)
    }

    /// ``dirtyChildIndex(of:)`` when the hint missed: the subviews searched, and the hint set to what was found.
    @inline(never)
    private func searchedChildIndex(of child: Unmanaged<View>) -> UInt16 {
        let target = child.toOpaque()
        return liveSubviews.withViews { subviews in
            for index in 0..<Swift.min(subviews.count, Int(Self.anyDirtyChild))
            where Unmanaged.passUnretained(subviews[index]).toOpaque() == target {
                child._withUnsafeGuaranteedRef { $0.indexHint = UInt8(truncatingIfNeeded: index) }
                return UInt16(index)
            }
            return Self.anyDirtyChild
        }
    }

    /// Whether this view or anything below it has changes not yet taken.
    public var hasChanges: Bool { needsRender || hasDirtyDescendant }

    /// Returns the changes since the last render as patch steps and clears the marks.
    ///
    /// Call it on the root. Each dirty view is rendered once, as the outermost dirty element of its
    /// subtree; list views report row insertions, removals and moves instead of re-rendering.
    public func takeChanges(context: RenderContext) -> [ViewChange] {
        var made: RenderContext? = context
        return takeChanges(context: &made, making: { context })
    }

    /// ``takeChanges(context:)`` with the context made by `makeContext` only if a change renders with one: a label
    /// whose markup another screen rendered (``LabelPatchMarkup``) needs none, and a screen's context is made for
    /// it (its action paths, hidden fields and upload attributes) and let go again on every patch.
    package func takeChanges(makingContext makeContext: () -> RenderContext) -> [ViewChange] {
        var made: RenderContext?
        return takeChanges(context: &made, making: makeContext)
    }

    private func takeChanges(context: inout RenderContext?, making makeContext: () -> RenderContext) -> [ViewChange] {
        checkConfinement("Taking a view tree's changes")
        var changes: [ViewChange] = []
        collectChanges(into: &changes, context: &context, making: makeContext)
        return changes
    }

    /// Collects the changes below this view; `context` is the context once made, `makeContext` makes it.
    ///
    /// First down the one changed path (``dirtyChild``) as far as it goes without a fork, in a loop that neither calls
    /// nor retains a view a level (a label's change, on every screen of a fan-out, is below every level of its
    /// screen), then from the view it stops at as before. A view on that path has no structural changes of its own: a
    /// list with some has marked any dirty child (``ListView``'s update marks with no child named). `Unmanaged` as in
    /// ``markDirtyDescendant(below:)``: the loop only reads links and flags and clears its marks, so every view stays
    /// held by its parent's subviews, and `self` by the caller, until the view it stops at is taken (retained) for
    /// what may run app code (rendering). Receipt: step 2 of Benchmarks/History/64-fan-out-screens-4.md.
    func collectChanges(
        into changes: inout [ViewChange], context: inout RenderContext?, making makeContext: () -> RenderContext
    ) {
        var node = Unmanaged.passUnretained(self)
        while let next = node._withUnsafeGuaranteedRef({ view -> Unmanaged<View>? in
            guard !view.needsRender, view.hasDirtyDescendant, view.dirtyChild != Self.anyDirtyChild else { return nil }
            let slot = Int(view.dirtyChild)
            guard
                let child = view.liveSubviews.withViews({ subviews -> Unmanaged<View>? in
                    slot < subviews.count ? Unmanaged.passUnretained(subviews[slot]) : nil
                })
            else { return nil }
            view.hasDirtyDescendant = false
            return child
        }) {
            node = next
        }
        if node.toOpaque() == Unmanaged.passUnretained(self).toOpaque() {
            collectChangesHere(into: &changes, context: &context, making: makeContext)
        } else {
            node.takeUnretainedValue().collectChangesHere(into: &changes, context: &context, making: makeContext)
        }
    }

    /// ``collectChanges(into:context:making:)`` from this view, where the changed path's loop stopped: rendered if it
    /// changed, else its structural changes and each subview's.
    private func collectChangesHere(
        into changes: inout [ViewChange], context: inout RenderContext?, making makeContext: () -> RenderContext
    ) {
        if needsRender {
            let patch = renderForPatch(context: &context, making: makeContext)
            let change = ViewChange.replace(id: patch.id, html: patch.html)
            // A patch's first change (most patches, a fan-out's label, have one): the array made with it, of its
            // size, rather than grown from empty for one element.
            if changes.isEmpty { changes = [change] } else { changes.append(change) }
            return
        }
        guard hasDirtyDescendant else { return }
        hasDirtyDescendant = false
        collectStructuralChanges(into: &changes, context: &context, making: makeContext)
        // The path forks here (or its slot names no subview): every subview is looked at.
        for view in liveSubviews { view.collectChanges(into: &changes, context: &context, making: makeContext) }
    }

    func clearMarks() {
        let descend = hasDirtyDescendant
        needsRender = false
        hasDirtyDescendant = false
        discardStructuralChanges()
        if descend { for view in liveSubviews { view.clearMarks() } }
    }
}

extension RenderContext? {
    /// The context, made by `make` now if there is none yet (a patch's, made the first time one of its changes
    /// renders: ``View/takeChanges(makingContext:)``).
    mutating func made(by make: () -> RenderContext) -> RenderContext {
        if let self { return self }
        let context = make()
        self = context
        return context
    }
}
