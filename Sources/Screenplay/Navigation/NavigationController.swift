package import ViewKit

/// Presents a screen's view controller inside the page shell, like `UINavigationController`.
///
/// It shows or hides the layout's navigation bar (live: open pages receive the change as a patch) and turns
/// navigation intents into page navigations: the runtime answers a form post with a 303 to the new URL, and a
/// live page with a `navigate` event.
///
/// ```swift
/// viewController.navigationController?.setNavigationBarHidden(true, animated: animated)
/// viewController.navigationController?.popViewController(animated: true)   // back to the previous screen
/// ```
public final class NavigationController {
    /// The view controller on screen.
    public let topViewController: ViewController

    /// Where ``popViewController(animated:)`` goes: the previous screen's URL.
    public let backURL: String

    // `@exclusivity(unchecked)` on the state below: confined to the screen's scheduler.
    /// Whether the layout's navigation bar is hidden.
    @exclusivity(unchecked) public private(set) var isNavigationBarHidden = false

    /// The URL the screen asked to navigate to, if any, not yet delivered to the page.
    @exclusivity(unchecked) package private(set) var pendingNavigation: String?

    /// Called when a navigation intent is made, so the screen can deliver it.
    @exclusivity(unchecked) package var navigationDidChange: (() -> Void)?

    private let navigationBar: View?

    package init(topViewController: ViewController, navigationBar: View?, backURL: String) {
        self.topViewController = topViewController
        self.navigationBar = navigationBar
        self.backURL = backURL
        topViewController.navigationController = self
    }

    /// Shows or hides the layout's navigation bar.
    public func setNavigationBarHidden(_ hidden: Bool, animated: Bool) {
        isNavigationBarHidden = hidden
        navigationBar?.isHidden = hidden
    }

    /// Navigates the page to `url`: a site-relative path such as `/movies/3`.
    public func push(_ url: String) {
        precondition(url.hasPrefix("/") && !url.hasPrefix("//"), "push(_:) takes a site-relative URL, got \(url)")
        pendingNavigation = url
        navigationDidChange?()
    }

    /// Navigates back to the previous screen (``backURL``).
    public func popViewController(animated: Bool) {
        push(backURL)
    }

    package func takePendingNavigation() -> String? {
        defer { pendingNavigation = nil }
        return pendingNavigation
    }
}

@available(*, unavailable)
extension NavigationController: Sendable {}
