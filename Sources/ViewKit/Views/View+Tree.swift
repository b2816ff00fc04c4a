internal import Reactive

// MARK: - Tree

extension View {
    /// The view this one is inside, if any.
    ///
    /// For a view inside a container its template kept as markup, the first read makes the container's view (see
    /// ``StaticContent``); the page does not change.
    public var superview: View? {
        while isInMarkupContainer, let holder = parent, holder.rare?.staticContent != nil {
            holder.materializeStaticContent(marksForRendering: false)
        }
        isInMarkupContainer = false
        return parent
    }

    /// Whether this view or one of its ancestors is hidden: what a posted action asks of its button.
    ///
    /// Walks the views around it without making the containers a template kept as markup (as ``superview`` would):
    /// such a container is never hidden (a `hidden` element stays a view), so the answer is the same.
    package var isHiddenInTree: Bool {
        var current: View? = self
        while let view = current {
            if view.isHidden { return true }
            current = view.parent
        }
        return false
    }

    /// Whether `view` is this view or one of its superviews (UIKit's `isDescendant(of:)`).
    public final func isDescendant(of view: View) -> Bool {
        var current = Unmanaged.passUnretained(self)
        while true {
            if current.toOpaque() == Unmanaged.passUnretained(view).toOpaque() { return true }
            guard let parent = current._withUnsafeGuaranteedRef({ $0.parentLink }) else { return false }
            current = parent
        }
    }

    /// Appends `view` as the last subview, removing it from its previous superview first.
    public func addSubview(_ view: View) {
        insertSubview(view, at: subviewCount)
    }

    /// Inserts `view` at `index` among the subviews, removing it from its previous superview first.
    public func insertSubview(_ view: View, at index: Int) {
        func refuse(_ mistake: String, _ fix: String) {
            ProgrammerErrors.report(ProgrammerError(mistake: "View.insertSubview: " + mistake, fix: fix))
        }
        guard !isVoidElement else {
            return refuse(
                "<\(tagName)> is a void element and has no content; nothing was added.", "add it to a container.")
        }
        var ancestor: View? = self
        while let node = ancestor {
            guard node !== view else {
                return refuse(
                    "a view cannot contain itself or its ancestor; nothing was added.",
                    "add the view to another view, outside its own subtree.")
            }
            // The views of containers kept as markup are not made: `view` is not one of them.
            ancestor = node.parent
        }
        view.removeFromSuperview()
        materializeStaticContent()
        attachSubviewQuietly(view, at: Swift.min(Swift.max(index, 0), liveSubviews.count))
        setNeedsRender()
    }

    /// Removes this view from its superview, keeping its DOM ids for a later return to the same tree.
    public func removeFromSuperview() {
        guard let oldParent = superview else { return }
        let allocator = oldParent.treeAllocator
        oldParent.materializeStaticContent()
        oldParent.liveSubviews.removeAll { $0 === self }
        parent = nil
        ownAllocator = allocator
        oldParent.setNeedsRender()
    }

    /// Attaches `view` at `index` without marking anything dirty (list views record their own changes).
    func attachSubviewQuietly(_ view: View, at index: Int) {
        materializeStaticContent()
        attachLiveSubview(view, at: index)
    }

    /// Attaches `view` among the live subviews at `index`, or last for `nil` (a template's child: no count asked).
    func attachLiveSubview(_ view: View, at index: Int?) {
        if let incoming = view.ownAllocator { adoptIDs(of: view, issuedBy: incoming) }
        if let index, index != liveSubviews.count {
            liveSubviews.insert(view, at: index)
            view.indexHint = UInt8(truncatingIfNeeded: index)
        } else {
            view.indexHint = UInt8(truncatingIfNeeded: liveSubviews.count)
            liveSubviews.append(view)
        }
        view.parent = self
        view.ownAllocator = nil
        if recordsChanges && (view.needsRender || view.hasDirtyDescendant) { markDirtyDescendant(below: view) }
    }

    /// Keeps the ids of a subtree joining this tree when they come from this tree's allocator (or
    /// this tree has none yet and takes the subtree's); forgets them otherwise, to be reissued.
    func adoptIDs(of subtree: View, issuedBy incoming: DOMIDAllocator) {
        let root = rootView
        if root.ownAllocator == nil { root.ownAllocator = incoming }
        guard root.ownAllocator !== incoming else { return }
        var stack = [subtree]
        while let view = stack.popLast() {
            view.storedID = 0
            stack.append(contentsOf: view.liveSubviews)
        }
    }

    /// Makes room for `count` subviews in all, so attaching them allocates once.
    func reserveSubviewCapacity(_ count: Int) {
        if count > 0 { liveSubviews.reserveCapacity(count) }
    }

    /// Appends a view made from a template node's child beside the node's static content (``StaticContent``): what
    /// ``attachLiveSubview(_:at:)`` does at the end, with the view the caller made handed into the list rather than
    /// retained for it and then released by the caller.
    @inline(__always)
    final func appendTemplateSubview(_ view: consuming View) {
        if let incoming = view.ownAllocator {
            adoptIDs(of: view, issuedBy: incoming)
            view.ownAllocator = nil
        }
        view.parent = self
        let marks = recordsChanges && (view.needsRender || view.hasDirtyDescendant)
        let index = liveSubviews.count
        view.indexHint = UInt8(truncatingIfNeeded: index)
        liveSubviews.append(view)
        if marks { markDirtyDescendant(belowSubviewAt: index) }
    }

    /// Turns the static children a template left as markup into views, in their places among the subviews.
    ///
    /// With `marksForRendering` (before a change of the subviews), marks this view for rendering: the page shows
    /// that markup without ids, and the new views render with theirs. Without it (a read), the new views are marked
    /// as still shown as markup, so a change to one renders this view then.
    final func materializeStaticContent(marksForRendering: Bool = true) {
        guard let content = rare?.staticContent else { return }
        var all: [View] = []
        all.reserveCapacity(content.children.count + Swift.max(liveSubviews.count - content.liveChildren.count, 0))
        var next = 0
        // Every change to the subviews comes here first, so they still fill the content's places.
        let live = liveSubviews.array
        for node in content.children {
            if node.isStatic {
                let view = node.instantiate(recordingChanges: recordsChanges)
                view.parent = self
                if !marksForRendering { view.markAsStaticMarkupOnPage() }
                all.append(view)
            } else if node.isMarkupAround && !content.keepsContainers {
                all.append(makeMarkupContainer(node, from: live, at: &next, marksForRendering: marksForRendering))
            } else if next < live.count {
                live[next].isInMarkupContainer = false
                all.append(live[next])
                next += 1
            }
        }
        if next < live.count { all.append(contentsOf: live[next...]) }
        liveSubviews = SubviewList(all)
        if let shared = rare, shared.isShared {
            // The template's state, shared with every view of the node: this view takes its own copy without it.
            let own = RareState()
            own.takeTemplateValues(of: shared)
            own.staticContent = nil
            rare = own.isEmpty ? nil : own
        } else if let own = rare {
            own.staticContent = nil
            if own.isEmpty { rare = nil }
        }
        if marksForRendering { setNeedsRender() }
    }

    /// Makes the view of `node`, a container kept as markup, and moves into it its views: those of `live` from `next`
    /// on, which `next` then passes. Read without `marksForRendering`, the container is shown without its id, like
    /// static markup made into views, and its views keep theirs.
    private func makeMarkupContainer(
        _ node: Prototype, from live: [View], at next: inout Int, marksForRendering: Bool
    ) -> View {
        let container = node.instantiateContainer(recordingChanges: recordsChanges)
        container.parent = self
        if !marksForRendering {
            container.isStaticMarkupOnPage = true
            container.needsRender = false
        }
        let count = Swift.min(node.liveChildren.count, live.count - next)
        container.reserveSubviewCapacity(count)
        for index in 0..<count {
            let view = live[next + index]
            view.isInMarkupContainer = !node.nestedLiveChildren.isEmpty && node.nestedLiveChildren[index]
            container.attachLiveSubview(view, at: nil)
        }
        next += count
        return container
    }

    /// Marks this subtree as shown on the page as markup without ids (``isStaticMarkupOnPage``), and as current: the
    /// marks its template state gave it (a class, say) are already on the page.
    private func markAsStaticMarkupOnPage() {
        isStaticMarkupOnPage = true
        needsRender = false
        hasDirtyDescendant = false
        for view in liveSubviews { view.markAsStaticMarkupOnPage() }
    }

    /// Detaches the subview at `index` without marking anything dirty.
    func detachSubviewQuietly(at index: Int) {
        let allocator = treeAllocator
        materializeStaticContent()
        let view = liveSubviews.remove(at: index)
        view.parent = nil
        view.ownAllocator = allocator
    }

    /// Replaces the subviews' order without marking anything dirty; `order` holds the same views.
    func reorderSubviewsQuietly(_ order: [View]) {
        materializeStaticContent()
        liveSubviews = SubviewList(order)
    }

    /// The topmost ancestor (the view itself when it has no superview).
    public var rootView: View {
        var node = self
        while let parent = node.parent { node = parent }
        return node
    }

    /// `rootView` for the hot paths (every first `domID`, every confinement check): the walk up
    /// does not retain each ancestor, which is sound because a parent outlives its link (see
    /// `parent`) and the tree is confined to one thread.
    var unretainedRoot: View {
        var node = Unmanaged.passUnretained(self)
        while let next = node._withUnsafeGuaranteedRef({ $0.parentLink }) { node = next }
        return node.takeUnretainedValue()
    }
}
