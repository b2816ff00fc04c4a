public import Reactive
public import Screenplay
public import ViewKit

/// Runs one screen without a server, for binder and view-controller tests.
///
/// The harness builds the screen from its factory on a fresh screen scheduler, runs its lifecycle, taps buttons
/// by action name and records the events the screen would send to its page. Nothing waits on a clock: every call
/// returns once the screen's scheduler has finished the work it caused (including the end-of-turn flush), so
/// tests are deterministic.
///
/// ```swift
/// let harness = try ScreenHarness(templates: "Templates") { _ in
///     let viewController = MovieDetailViewController()
///     viewController.bag.insert(MovieDetailBinder(viewController: viewController, driver: driver))
///     return viewController
/// }
/// harness.tap("refresh")
/// #expect(harness.patches.count == 1)
/// assertSnapshot(of: harness.pageHTML, as: .html)
/// ```
public final class ScreenHarness: Sendable {
    /// The scheduler the screen runs on.
    public let scheduler: ScreenScheduler
    private let state: ScreenConfined<Screen?>
    private let recorded: ScreenConfined<[ScreenEvent]>

    /// Builds the screen for `url` with `factory` and runs `loadView` → `viewDidLoad` → `viewWillAppear(false)`.
    ///
    /// - Parameters:
    ///   - templates: the folder holding `layout.html` and the screens' templates.
    ///   - views: registers custom view classes named by `data-view`.
    ///   - url: the screen's URL; `parameters` are its path parameters.
    ///   - appear: also run `viewDidAppear(false)`, as when the page's event stream connects (default true).
    public init(
        templates directory: String, views: (ViewRegistry) -> Void = { _ in }, url: String = "/",
        parameters: [String: String] = [:], parent: String = "/", appear: Bool = true,
        factory: @escaping @Sendable (ScreenRequest) throws -> ViewController
    ) throws {
        let registry = ViewRegistry()
        views(registry)
        let templates = try TemplateLibrary(directory: directory, registry: registry)
        let layout = try templates.template(named: "layout")
        let scheduler = ScreenScheduler(label: "screen-harness")
        self.scheduler = scheduler
        state = ScreenConfined(nil, on: scheduler)
        recorded = ScreenConfined([], on: scheduler)
        let request = ScreenRequest(url: url, path: url, parameters: parameters)
        try scheduler.sync { [state, recorded] in
            let viewController = try ViewController.$screenTemplates.withValue(templates) { try factory(request) }
            let screen = Screen(
                viewController: viewController, layout: layout, templates: templates, url: url, backURL: parent,
                sessionID: "test", csrfToken: "test-token")
            screen.scheduleFlush = { [state] in state.scheduler.atEndOfTurn { state.value?.flush() } }
            screen.eventObserver = { [recorded] event in recorded.value.append(event) }
            state.value = screen
            _ = screen.renderPage()
            if appear { screen.appearIfNeeded() }
        }
        settle()
    }

    /// Runs `body` on the screen's scheduler with its view controller, then lets the screen flush.
    @discardableResult
    public func onScreen<Controller: ViewController, T: Sendable>(
        _ type: Controller.Type, _ body: (Controller) throws -> T
    ) rethrows -> T {
        let result = try scheduler.sync { [state] in
            guard let controller = state.value?.viewController as? Controller else {
                preconditionFailure("The screen's view controller is not a \(Controller.self)")
            }
            return try body(controller)
        }
        settle()
        return result
    }

    /// Taps the button whose `data-action` is `action`; returns false if the screen has no enabled such button.
    @discardableResult
    public func tap(_ action: String) -> Bool {
        let done = scheduler.sync { [state] in state.value?.perform(action: action) ?? false }
        settle()
        return done
    }

    /// Runs `viewDidAppear(false)` (once), as when the page's event stream connects.
    public func appear() {
        scheduler.sync { [state] in _ = state.value?.appearIfNeeded() }
        settle()
    }

    /// Waits until the work queued on the screen's scheduler so far (and the flush it causes) has run.
    public func settle() {
        scheduler.sync {}
        scheduler.sync {}
    }

    /// The whole page as the server would render it now.
    public var page: String {
        scheduler.sync { [state] in String(decoding: state.value?.renderPage() ?? [], as: UTF8.self) }
    }

    /// The screen's own view (inside the layout), rendered.
    public var screenHTML: String {
        scheduler.sync { [state] in
            guard let screen = state.value else { return "" }
            return String(decoding: screen.viewController.view.renderHTML(context: screen.context), as: UTF8.self)
        }
    }

    /// Every event the screen sent, oldest first.
    public var events: [ScreenEvent] {
        scheduler.sync { [recorded] in recorded.value }
    }

    /// The `patch` events' changes, one array per event.
    public var patches: [[ViewChange]] {
        events.compactMap { if case .patch(let changes) = $0 { changes } else { nil } }
    }

    /// The URLs the screen navigated to.
    public var navigations: [String] {
        events.compactMap { if case .navigate(let url) = $0 { url } else { nil } }
    }

    /// The event stream as text, one event per block, as on the wire: for snapshots of the patch stream.
    public var eventStreamText: String {
        events.enumerated().map { String(decoding: $1.encoded(id: $0 + 1), as: UTF8.self) }.joined()
    }

    /// Forgets the recorded events.
    public func clearEvents() {
        scheduler.sync { [recorded] in recorded.value = [] }
    }

    /// Ends the screen: `viewWillDisappear` → `viewDidDisappear` → the bag disposed.
    public func end() {
        scheduler.sync { [state] in
            state.value?.end()
            state.value = nil
        }
    }
}
