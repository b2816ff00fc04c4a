internal import ViewKit

// MARK: Modal presentation

extension ViewController {
    /// Presents `viewController` modally over this one, like UIKit's `present(_:animated:completion:)`.
    ///
    /// The presented controller is a child of this one (``addChild(_:)``): it has its own view (loaded from its
    /// template, or built in its `loadView()`), binder and bag, and its lifecycle follows this one's (it appears now
    /// when this controller has appeared). Its view goes inside a `<dialog>` at the end of this controller's view,
    /// which a live page shows with `showModal()` (focus moves inside and stays there, the page behind is inert,
    /// Escape cancels) and a page without JavaScript shows alone, as a page of its own whose buttons are form posts.
    /// While a controller is presented, a screen's actions reach the buttons of the presented view only.
    ///
    /// The dialog is named by the first heading (`h1`–`h3`) view of the presented view, else by its ``title``.
    /// Escape posts the cancel action: an ``AlertController``'s action of style ``AlertAction/Style/cancel``
    /// (none: Escape does nothing), or for any other controller the dialog's own Close button, which dismisses it.
    ///
    /// Presenting while this controller already presents one, or presenting a controller that has a parent or is
    /// presented elsewhere, is a mistake, reported; nothing is presented.
    ///
    /// ```swift
    /// let alert = AlertController(title: "Delete “Heat”?", message: "This cannot be undone.")
    /// alert.addAction(AlertAction(title: "Cancel", style: .cancel))
    /// alert.addAction(AlertAction(title: "Delete", style: .destructive) { _ in driver.delete() })
    /// viewController.present(alert, animated: true)
    /// ```
    public func present(_ viewController: ViewController, animated: Bool, completion: (() -> Void)? = nil) {
        guard presentedViewController == nil else {
            return reportPresentationMistake(
                "\(type(of: self)) already presents \(type(of: presentedViewController!)); "
                    + "\(type(of: viewController)) was not presented.",
                fix: "dismiss the presented view controller first, or present from the presented one.")
        }
        guard viewController !== self, viewController.parent == nil, viewController.presentingViewController == nil
        else {
            return reportPresentationMistake(
                "\(type(of: viewController)) is already on screen (a child or a presented controller); "
                    + "it was not presented.",
                fix: "present a new view controller.")
        }
        let dialog = View(tagName: "dialog")
        dialog.classList.insert("sp-dialog")
        dialog.setAttribute(ScreenWire.Attribute.modal.rawValue, "")
        // Open as the page renders it: a page without JavaScript shows it in place; the script makes it modal.
        dialog.setAttribute("open", "")
        addChild(viewController)
        guard viewController.parent === self else { return }
        viewController.presentingViewController = self
        presentedViewController = viewController
        presentationDialog = dialog
        dialog.addSubview(viewController.view)
        let cancelAction = viewController.cancelActionForPresentation(in: dialog)
        view.addSubview(dialog)
        if let cancelAction { dialog.setAttribute(ScreenWire.Attribute.cancel.rawValue, cancelAction) }
        if let heading = viewController.view.firstHeading {
            dialog.setAttribute("aria-labelledby", heading.domID)
        } else {
            dialog.setAttribute("aria-label", viewController.title ?? "Dialog")
        }
        (viewController as? AlertController)?.describe(dialog)
        viewController.didMove(toParent: self)
        completion?()
    }

    /// Dismisses the view controller this one presents, or, called on a presented controller, this one, like UIKit's
    /// `dismiss(animated:completion:)`: controllers it presents in turn go first. The presented controller
    /// disappears, leaves this view with its dialog, and its bag (its binder, its subscriptions) is disposed. Does
    /// nothing when nothing is presented.
    public func dismiss(animated: Bool, completion: (() -> Void)? = nil) {
        let presenter = presentedViewController == nil ? presentingViewController : self
        guard let presenter, let presented = presenter.presentedViewController else {
            completion?()
            return
        }
        if presented.presentedViewController != nil { presented.dismiss(animated: animated) }
        presented.willMove(toParent: nil)
        presented.removeFromParent()
        presented.presentingViewController = nil
        presenter.presentedViewController = nil
        presenter.presentationDialog?.removeFromSuperview()
        presenter.presentationDialog = nil
        completion?()
    }

    /// The view controller on top: the last one presented over this one, or this one.
    package var topPresentedViewController: ViewController {
        var top = self
        while let presented = top.presentedViewController { top = presented }
        return top
    }

    private func reportPresentationMistake(_ mistake: String, fix: String) {
        ProgrammerErrors.report(ProgrammerError(mistake: mistake, fix: fix))
    }
}

extension View {
    /// The first `h1`, `h2` or `h3` view of this subtree, depth first.
    fileprivate var firstHeading: View? {
        if ["h1", "h2", "h3"].contains(tagName) { return self }
        for subview in subviews {
            if let found = subview.firstHeading { return found }
        }
        return nil
    }
}
