internal import Foundation
public import Screenplay
public import ViewKit

/// A user's way through several screens without a server: links, the screens' own navigations and Back and Forward,
/// each screen a ``ScreenHarness``, moved between as the browser's client moves between them in place.
///
/// The flow keeps a history of URLs as the browser does. ``open(_:)`` is a link (a new entry, after the current one);
/// ``follow()`` takes the current screen's last navigation (a `push`, `popViewController`), which is ``back()`` when
/// its URL is the entry just behind and this flow opened the current entry, as the client's `history.back()`;
/// ``back()`` and ``forward()`` build the entry's screen again from its URL, with its data as it is now. The screen
/// left is ended (`viewWillDisappear` → `viewDidDisappear`), as the client closes it.
///
/// ```swift
/// let flow = ScreenFlow(templates: "Templates", routes: [
///     .init("/") { request in MovieListViewController.make(store: store, request: request) },
///     .init("/movies/:id", parent: "/") { request in
///         try MovieDetailViewController.make(request: request, store: store, readScheduler: scheduler)
///     },
/// ])
/// try flow.open("/")
/// try flow.open("/movies/1")
/// try flow.current.tap("back")
/// try flow.follow()  // back to the list: a fresh list screen
/// #expect(flow.url == "/" && flow.canGoForward)
/// ```
public final class ScreenFlow {
    /// A screen route: its path pattern (`/movies/:id`; `:name` is a parameter, one segment), the URL its screen's
    /// `popViewController` goes to, and its factory.
    public struct Route: Sendable {
        /// The path pattern, such as `/movies/:id`.
        public let pattern: String
        /// Where the screen's `popViewController` goes (``NavigationController/backURL``).
        public let parent: String
        /// Builds the screen's view controller for a request, as the application's route does.
        public let factory: @Sendable (ScreenRequest) throws -> ViewController

        /// A route of `pattern`, whose screens go back to `parent`, built by `factory`.
        public init(
            _ pattern: String, parent: String = "/",
            factory: @escaping @Sendable (ScreenRequest) throws -> ViewController
        ) {
            self.pattern = pattern
            self.parent = parent
            self.factory = factory
        }

        /// The path parameters of `path` when it matches, else nil.
        func match(_ path: String) -> [String: String]? {
            let wanted = pattern.split(separator: "/", omittingEmptySubsequences: true)
            let given = path.split(separator: "/", omittingEmptySubsequences: true)
            guard wanted.count == given.count else { return nil }
            var parameters: [String: String] = [:]
            for (part, value) in zip(wanted, given) {
                if part.hasPrefix(":") {
                    parameters[String(part.dropFirst())] = String(value).removingPercentEncoding ?? String(value)
                } else if part != value {
                    return nil
                }
            }
            return parameters
        }
    }

    private struct Entry {
        let url: String
        /// The URL of the entry before it, when the flow opened this one after it.
        let back: String?
    }

    private let templates: String
    private let views: (ViewRegistry) -> Void
    private let routes: [Route]
    private let headers: HTTPHeaders
    private let cookies: [String: String]
    private let signIn: SignIn?
    private var entries: [Entry] = []
    private var index = -1
    private var screen: ScreenHarness?

    /// A flow over `routes`, each screen built as ``ScreenHarness`` builds one (from `templates`, with `views`, and
    /// the request's `headers` and `cookies`, and the application's `signIn`).
    public init(
        templates: String, views: @escaping (ViewRegistry) -> Void = { _ in }, headers: HTTPHeaders = [:],
        cookies: [String: String] = [:], signIn: SignIn? = nil, routes: [Route]
    ) {
        self.templates = templates
        self.views = views
        self.routes = routes
        self.headers = headers
        self.cookies = cookies
        self.signIn = signIn
    }

    /// The screen shown. Before the first ``open(_:)`` there is none: reading it then throws a ``ScreenFlowError``
    /// saying so (a mistake of the test fails that test, not the process).
    public var current: ScreenHarness {
        get throws {
            guard let screen else {
                throw ScreenFlowError(description: "ScreenFlow.current before open(_:): open a URL first.")
            }
            return screen
        }
    }

    /// The URL shown.
    public var url: String? { index >= 0 ? entries[index].url : nil }

    /// The history's URLs, oldest first, and which is shown.
    public var history: (urls: [String], index: Int) { (entries.map(\.url), index) }

    /// Whether there is an entry before the one shown.
    public var canGoBack: Bool { index > 0 }
    /// Whether there is an entry after the one shown.
    public var canGoForward: Bool { index + 1 < entries.count }

    /// A link to `url`: its screen, in a new entry after the current one (the entries after it are dropped); a link to
    /// the URL shown replaces its entry.
    @discardableResult
    public func open(_ url: String) throws -> ScreenHarness {
        let built = try build(url)
        if index >= 0 && entries[index].url == url {
            entries[index] = Entry(url: url, back: entries[index].back)
        } else {
            entries.removeSubrange((index + 1)...)
            entries.append(Entry(url: url, back: index >= 0 ? entries[index].url : nil))
            index += 1
        }
        return show(built)
    }

    /// Follows the current screen's last navigation: back when it goes to the entry just behind one this flow opened,
    /// else a new entry.
    @discardableResult
    public func follow() throws -> ScreenHarness {
        guard let target = try current.navigations.last else {
            throw ScreenFlowError(
                description: "The screen at \(url ?? "-") has not navigated: tap what navigates first.")
        }
        if let back = entries[index].back, back == target, canGoBack { return try self.back() }
        return try open(target)
    }

    /// The browser's Back: the entry before, its screen built again from its URL.
    @discardableResult
    public func back() throws -> ScreenHarness {
        guard canGoBack else {
            throw ScreenFlowError(description: "Back from the first entry: there is nothing behind it.")
        }
        let built = try build(entries[index - 1].url)
        index -= 1
        return show(built)
    }

    /// The browser's Forward: the entry after, its screen built again from its URL.
    @discardableResult
    public func forward() throws -> ScreenHarness {
        guard canGoForward else {
            throw ScreenFlowError(description: "Forward from the last entry: there is nothing after it.")
        }
        let built = try build(entries[index + 1].url)
        index += 1
        return show(built)
    }

    /// Ends the screen shown.
    public func end() {
        screen?.end()
        screen = nil
    }

    private func build(_ url: String) throws -> ScreenHarness {
        let path = String(url.prefix { $0 != "?" && $0 != "#" })
        for route in routes {
            if let parameters = route.match(path) {
                return try ScreenHarness(
                    templates: templates, views: views, url: url, parameters: parameters, headers: headers,
                    cookies: cookies, parent: route.parent, signIn: signIn, factory: route.factory)
            }
        }
        throw ScreenFlowError(description: "No route of the flow matches \(url): add a Route for it.")
    }

    private func show(_ built: ScreenHarness) -> ScreenHarness {
        screen?.end()
        screen = built
        return built
    }
}

@available(*, unavailable)
extension ScreenFlow: Sendable {}

/// What a ``ScreenFlow`` cannot do (a URL no route matches, Back from the first entry, a screen that has not
/// navigated), and what to do instead.
public struct ScreenFlowError: Error, Sendable, CustomStringConvertible {
    /// What went wrong and what to do.
    public let description: String
}
