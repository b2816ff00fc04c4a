public import ViewKit

// MARK: - Child view controllers

extension ViewController {
    /// Makes `child` a child of this view controller, like UIKit's `addChild(_:)`: it takes this controller's
    /// templates and navigation controller, and its lifecycle follows this one's from now on (its appearance
    /// methods run after this controller's, and its bag is disposed when this screen ends or when it is removed).
    ///
    /// Calls `child.willMove(toParent: self)`. Then put the child's view in this controller's view and call
    /// `child.didMove(toParent: self)`, or do all three with ``addChild(_:in:)``. A child that has a parent is
    /// removed from it first; adding a controller to itself or to its own child is a mistake, reported, and does
    /// nothing. A binder in the child's bag whose `bind()` never ran is reported, as for a screen's controller.
    ///
    /// ```swift
    /// addChild(moreLikeThis)
    /// moreLikeThisContainer.addSubview(moreLikeThis.view)
    /// moreLikeThis.didMove(toParent: self)
    /// ```
    public func addChild(_ child: ViewController) {
        var ancestor: ViewController? = self
        while let node = ancestor {
            guard node !== child else {
                ProgrammerErrors.report(
                    ProgrammerError(
                        mistake: "\(type(of: self)).addChild was given \(type(of: child)), which is the controller "
                            + "itself or one of its parents; nothing was added.",
                        fix: "add a new view controller as the child."))
                return
            }
            ancestor = node.parent
        }
        if child.parent === self { return }
        if child.parent != nil {
            child.willMove(toParent: nil)
            child.removeFromParent()
        }
        child.willMove(toParent: self)
        // A child's binders are made with it, before it is added: checked now, as the screen checks its controller's.
        child.reportUnboundBinders()
        if child.templates == nil { child.templates = templates }
        // The list taken out, grown and put back whole: an access to `childList` spanning the append (which may
        // reallocate and release the old storage) would need a run-time exclusivity check on every access to it
        // (Benchmarks/History/69-exclusivity-by-shape-2.md).
        var list = childList
        childList = []
        list.append(child)
        childList = list
        child.parentLink = self
    }

    /// Adds `child` (``addChild(_:)``), puts its view at the end of `container` (a view of this controller's), and
    /// calls `child.didMove(toParent: self)`: UIKit's three steps of containment in one call.
    public func addChild(_ child: ViewController, in container: View) {
        addChild(child)
        guard child.parent === self else { return }
        container.addSubview(child.view)
        child.didMove(toParent: self)
    }

    /// Removes this view controller from its parent, like UIKit's `removeFromParent()`: it disappears (when the
    /// parent had appeared), its view leaves the parent's view, and its bag (and its children's) is disposed, so
    /// its binder and subscriptions end with it. Call `willMove(toParent: nil)` first, as in UIKit; `didMove` is
    /// called here.
    public func removeFromParent() {
        guard let parent else { return }
        if let step = parent.appearance, step == .willAppear || step == .didAppear, isViewLoaded {
            performViewWillDisappear(false)
            performViewDidDisappear(false)
        }
        if isViewLoaded { view.removeFromSuperview() }
        // Taken out and put back, as `addChild(_:)` does.
        var siblings = parent.childList
        parent.childList = []
        siblings.removeAll { $0 === self }
        parent.childList = siblings
        parentLink = nil
        disposeBag()
        didMove(toParent: nil)
    }

    /// A child added to a parent that has appeared catches up: its view loads and it appears.
    func catchUpWithParent() {
        guard let parent, let step = parent.appearance, appearance != .willAppear, appearance != .didAppear else {
            return
        }
        loadViewIfNeeded()
        switch step {
        case .willAppear:
            performViewWillAppear(false)
        case .didAppear:
            performViewWillAppear(false)
            performViewDidAppear(false)
        case .willDisappear, .didDisappear:
            break
        }
    }
}
