internal import Screenplay
internal import ViewKit

// MARK: Presented view controllers

extension ScreenHarness {
    /// Whether a view controller is presented over the screen (``ViewController/present(_:animated:completion:)``).
    public var isPresenting: Bool {
        onScreen(ViewController.self) { $0.presentedViewController != nil }
    }

    /// The `<dialog>` of the view controller presented on top, rendered as the page shows it; nil when nothing is
    /// presented. For snapshots of each step of a flow.
    public var presentedHTML: String? {
        onScreen(ViewController.self) { controller -> String? in
            let top = controller.topPresentedViewController
            guard let dialog = top.presentingViewController?.presentationDialog else { return nil }
            return String(decoding: dialog.renderHTML(context: Self.testContext), as: UTF8.self)
        }
    }

    /// Presses the button of the action titled `title` of the ``AlertController`` presented on top, as the page
    /// posts it: the alert is dismissed, then the action's handler runs. Returns false when no alert is presented
    /// or it has no such action.
    @discardableResult
    public func tapAlertAction(_ title: String) -> Bool {
        let action = onScreen(ViewController.self) { controller -> String? in
            guard let alert = controller.topPresentedViewController as? AlertController,
                let index = alert.actions.firstIndex(where: { $0.title == title })
            else { return nil }
            return AlertController.actionName(at: index)
        }
        guard let action else { return false }
        return tap(action)
    }

    /// Escape, as the page's script plays it: posts the cancel action of the dialog on top (an alert's cancel
    /// action, another controller's Close). Returns false when nothing is presented or the dialog has no cancel
    /// action (the dialog stays, as in the browser).
    @discardableResult
    public func pressEscape() -> Bool {
        let action = onScreen(ViewController.self) { controller -> String? in
            let top = controller.topPresentedViewController
            return top.presentingViewController?.presentationDialog?.attribute(ScreenWire.Attribute.cancel.rawValue)
        }
        guard let action else { return false }
        return tap(action)
    }

    /// The context presented dialogs render with here: action paths of the harness's session.
    private static var testContext: RenderContext {
        RenderContext(actionPath: { ScreenWire.actionPath(screen: "test", action: $0) })
    }
}
