internal import Reactive
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

    /// Whether the layout's navigation bar is hidden.
    public private(set) var isNavigationBarHidden = false

    /// The URL the screen asked to navigate to, if any, not yet delivered to the page.
    package var pendingNavigation: String? { storedPendingNavigation }
    // The two intents' storage, private: no code outside the module can hold it `inout`, so the optimizer proves
    // every access exclusive when it compiles the module, and none needs a run-time check
    // (Benchmarks/History/65-exclusivity-by-shape.md).
    private var storedPendingNavigation: String?
    private var storedPendingURLReplacement: String?

    /// The screen this navigation controller is part of, told when a navigation intent is made so it can deliver it.
    /// `unowned`, not a closure holding the screen, as `ViewController.hostScreen` is: the screen clears it when it ends
    /// and in its `deinit`.
    unowned var hostScreen: Screen?

    private let navigationBar: View?

    package init(topViewController: ViewController, navigationBar: View?, backURL: String, url: String = "/") {
        self.topViewController = topViewController
        self.currentURL = url
        self.navigationBar = navigationBar
        self.backURL = backURL
        topViewController.navigationLink = self
    }

    deinit {
        // The view controller may outlive this one (app code can hold it): it has no navigation controller from now on.
        topViewController.navigationLink = nil
    }

    /// Shows or hides the layout's navigation bar.
    public func setNavigationBarHidden(_ hidden: Bool, animated: Bool) {
        isNavigationBarHidden = hidden
        navigationBar?.isHidden = hidden
    }

    /// The URL of the screen as the page shows it: where it was opened, or what ``replaceURL(_:)`` set last.
    public private(set) var currentURL: String

    /// The URL ``replaceURL(_:)`` set, not yet delivered to the page.
    package var pendingURLReplacement: String? { storedPendingURLReplacement }

    /// Navigates the page to `url`: a site-relative path such as `/movies/3`.
    public func push(_ url: String) {
        guard Self.isSiteRelative(url, in: "push(_:)") else { return }
        storedPendingNavigation = url
        hostScreen?.setNeedsFlush()
    }

    /// Changes the URL the page shows without leaving the screen (`history.replaceState`): a search field's query,
    /// kept so that reload, share and Back show the same results. A screen rebuilt from its URL (after a restart)
    /// is built from this one.
    public func replaceURL(_ url: String) {
        guard Self.isSiteRelative(url, in: "replaceURL(_:)"), url != currentURL else { return }
        currentURL = url
        storedPendingURLReplacement = url
        hostScreen?.setNeedsFlush()
    }

    package func takePendingURLReplacement() -> String? {
        let url = storedPendingURLReplacement
        storedPendingURLReplacement = nil
        return url
    }

    private static func isSiteRelative(_ url: String, in method: String) -> Bool {
        guard url.hasPrefix("/") && !url.hasPrefix("//") else {
            ProgrammerErrors.report(
                ProgrammerError(
                    mistake: "NavigationController.\(method) was given “\(url)”, which is not a site-relative URL.",
                    fix: "pass a path on this site that starts with one slash, such as /movies/3."))
            return false
        }
        return true
    }

    /// Navigates back to the previous screen (``backURL``).
    public func popViewController(animated: Bool) {
        push(backURL)
    }

    package func takePendingNavigation() -> String? {
        let url = storedPendingNavigation
        storedPendingNavigation = nil
        return url
    }
}

@available(*, unavailable)
extension NavigationController: Sendable {}
