internal import Dispatch
internal import FoundationEssentials
package import HTTPServer
internal import Reactive
package import ViewKit

/// One live screen: the view controller, its page (the layout with the screen's view inside), and the events it
/// has sent. Confined to the screen's scheduler; reached from other threads through its ``ScreenSession``.
package final class Screen {
    package let viewController: ViewController
    package let navigation: NavigationController
    package let page: View
    /// The session's CSRF token, which every action form carries.
    package let csrfToken: String
    /// The token as the hidden field of every form, made (and checked) once, not for every patch.
    private let formFields: HiddenFormFields
    /// What renders the page's forms: actions post to the session's action URLs with its token. Made when rendering
    /// (its action path is a closure over the session id), not kept with every screen.
    package var context: RenderContext {
        var context = RenderContext(
            actionPath: { [sessionID] in ScreenWire.actionPath(screen: sessionID, action: $0) },
            hiddenFormFields: formFields)
        context.setUploadAttributes(Self.sharedUploadAttributes, screen: uploadScreenAttribute, at: 1)
        return context
    }
    /// What a file field's input carries for an upload client (``RenderContext/uploadAttributes``) but the screen's
    /// id, the same for every screen: a screen keeps no list of its own (Benchmarks/History/45-screen-memory-4.md).
    private static let sharedUploadAttributes: [(name: String, value: String)] = [
        (ScreenWire.Attribute.uploadURL.rawValue, ScreenWire.uploads.template),
        (ScreenWire.Attribute.uploadScreenKey.rawValue, ScreenWire.Field.screen.rawValue),
        (ScreenWire.Attribute.uploadCSRFKey.rawValue, ScreenWire.Field.csrf.rawValue),
    ]
    /// The upload attribute naming the screen, second among them.
    private var uploadScreenAttribute: (name: String, value: String) {
        (ScreenWire.Attribute.uploadScreen.rawValue, sessionID)
    }
    package let url: String
    /// The session's id, which names the screen on the wire.
    package let sessionID: String
    private let titleView: Label?
    private let themeColor: View?
    // `@exclusivity(unchecked)` on the state below (receipt: `Screen` in Benchmarks/History/26-receipts.md): sound
    // because it is confined to the screen's scheduler (one turn at a time; the hooks are set before the screen's
    // first turn) and never held `inout` across a call back into the screen.
    @exclusivity(unchecked) private var log: EventLog
    @exclusivity(unchecked) private var streams: [any ScreenEventTarget] = []
    @exclusivity(unchecked) private var sentTitle: String?
    /// The version of the client the page loads (``ClientAssets``), written on `<html>` as `data-client`.
    var clientVersion = "test"
    /// Development only (`--dev-latency`): how long each event is held back before it goes to the streams. Unchecked
    /// as the state above, for the same reason (receipt: step 2 of Benchmarks/History/62-fan-out-screens-3.md, read on
    /// every event): set before the screen's first turn.
    @exclusivity(unchecked) var eventDelay: DispatchTimeInterval?
    /// The ids of the action posts answered this turn, sent as `ack` events after its patch. Unchecked as the state
    /// above (receipt: step 2 of Benchmarks/History/62-fan-out-screens-3.md, read and emptied on every flush).
    @exclusivity(unchecked) private var answeredPosts: [String] = []
    /// Called on the scheduler whenever events were sent; the harness records them.
    @exclusivity(unchecked) package var eventObserver: ((ScreenEvent) -> Void)?
    /// Schedules a flush at the end of the current scheduler turn.
    @exclusivity(unchecked) package var scheduleFlush: (() -> Void)?
    /// Counts renders and patches, when the application keeps metrics.
    @exclusivity(unchecked) package var metrics: Metrics?

    /// Builds the page and runs the lifecycle up to `viewWillAppear(false)`. `isLive` false: the screen renders one page
    /// and ends, so its controllers' storage is not trimmed for a long life.
    package init(
        viewController: ViewController, layout: Template, templates: TemplateLibrary, url: String, backURL: String,
        sessionID: String, csrfToken: String, eventBuffer: Int = 32, isLive: Bool = true
    ) {
        self.viewController = viewController
        self.url = url
        self.sessionID = sessionID
        self.csrfToken = csrfToken
        formFields = .screen(csrfToken: csrfToken)
        self.log = EventLog(capacity: eventBuffer)
        page = layout.instantiate()
        if let scheduler = ScreenScheduler.current { page.confine(to: scheduler) }
        titleView = page.outletIfPresent("title") as? Label
        themeColor = page.outletIfPresent("themeColor")
        navigation = NavigationController(
            topViewController: viewController, navigationBar: page.outletIfPresent("navigationBar"),
            backURL: backURL, url: url)
        viewController.templates = templates
        viewController.reportUnboundBinders()
        viewController.loadViewIfNeeded()
        page.outlet("content", as: View.self).addSubview(viewController.view)
        viewController.performViewWillAppear(false)
        if isLive { viewController.compactForLife() }
        applyShell()
        sentTitle = viewController.title
        // Unowned, not weak: a weak reference gives the screen a side table for its whole life
        // (Benchmarks/History/45-screen-memory-4.md); the view controller and the navigation controller hold the
        // screen itself, without a closure each (Benchmarks/History/48). App code may keep the view controller or a
        // view past the screen's end and change it then, so `end()` and `deinit` take them back: none outlives the
        // screen. The page's handler reaches the screen through the navigation controller's link: a closure holding
        // one object strongly is that object, where one holding the screen unowned was an object of its own for the
        // screen's life (Benchmarks/History/51-screen-memory-6.md). The navigation controller holds no view above
        // its bar, so the page holding it makes no cycle.
        viewController.hostScreen = self
        navigation.hostScreen = self
        page.invalidationHandler = { [navigation] in navigation.hostScreen?.setNeedsFlush() }
    }

    deinit {
        releaseHandlers()
    }

    /// Takes back the handlers that hold this screen unowned.
    private func releaseHandlers() {
        viewController.hostScreen = nil
        page.invalidationHandler = nil
        navigation.hostScreen = nil
    }

    /// The protocol version a page names on `<html>`.
    private static let wireVersion = String(ScreenWire.version)
    /// The path every page names for its streams, spelled once for the process: a wire path spells itself from its
    /// pieces each time it is asked, and every screen asked at each render (Benchmarks/History/44). The upload path
    /// is spelled once in `sharedUploadAttributes`.
    private static let streamsPattern = ScreenWire.streams.pattern

    /// The id of the newest event sent.
    package var lastEventID: Int { log.lastID }
    /// The events the screen keeps for a reconnecting page, oldest first.
    package var keptEvents: [FramedEvent] { log.kept }

    /// The digest of the page's last render (``RenderDigest``), written on its `<html>` as `data-render`; nil when
    /// renders are not digested (tests' pages carry `test`).
    package var renderDigest: UInt64? { storedRenderDigest }
    // The storage of the digest and of `digestsRenders`, private and only read or assigned whole: a package stored
    // property may be accessed from other modules, so every access to it was checked at run time
    // (Benchmarks/History/69-exclusivity-by-shape-2.md).
    private var storedRenderDigest: UInt64?
    // The yes-or-no states side by side, and last, after the tag byte of the optional above: a Boolean between two
    // words takes a word of the screen's object (Benchmarks/History/45-screen-memory-4.md), and in a word of their own
    // they took the screen past a malloc size class (Benchmarks/History/54-screen-memory-8.md). Unchecked as the state
    // at the top of the class, for the same reason and with the same receipt (`Screen` in
    // Benchmarks/History/26-receipts.md): confined to the screen's scheduler, never held `inout` across a call back.
    @exclusivity(unchecked) private var flushScheduled = false
    @exclusivity(unchecked) private var hasAppeared = false
    /// Whether the view controller told of a change of its title or status bar style since the last flush
    /// (``shellDidChange()``): the flush compares the title with the one sent only then. Sound because the title
    /// changes only through its setter, which tells the screen whenever the text changed (its storage is private to
    /// `ViewController`), and the screen is told from before `sentTitle` can differ until it ends. Unchecked as the
    /// states beside it: confined to the screen's scheduler (set when the controller tells the screen, read and cleared
    /// by the flush, both in the screen's turns) and never held `inout` across a call back. Receipt: step 2 of
    /// Benchmarks/History/85-fan-out-screens-11.md.
    @exclusivity(unchecked) private var shellChanged = false
    @exclusivity(unchecked) package private(set) var isEnded = false
    /// Whether renders carry their digest; a harness's name it `test` instead, as they name the session, so that a
    /// snapshot of a page shows what changed and no hash of it.
    package var digestsRenders: Bool {
        get { storedDigestsRenders }
        set { storedDigestsRenders = newValue }
    }
    private var storedDigestsRenders = true

    /// Renders the whole page as it is now, for a GET or a `reset`.
    ///
    /// `last`: the screen ends right after, without another render or flush (a page rendered without a live screen),
    /// so the views' dirty marks and recorded changes are left as they are rather than cleared for a next patch.
    package func renderPage(last: Bool = false) -> [UInt8] {
        let start = metrics == nil ? 0 : DispatchTime.now().uptimeNanoseconds
        let attributes = [
            (ScreenWire.Attribute.screenURL.rawValue, url),
            (ScreenWire.Attribute.lastEventID.rawValue, String(log.lastID)),
            (ScreenWire.Attribute.wire.rawValue, Self.wireVersion),
            (ScreenWire.Attribute.screen.rawValue, sessionID),
            (ScreenWire.Attribute.csrf.rawValue, csrfToken),
            (ScreenWire.Attribute.streams.rawValue, Self.streamsPattern),
            (ScreenWire.Attribute.client.rawValue, clientVersion),
            (ScreenWire.Attribute.render.rawValue, digestsRenders ? RenderDigest.placeholder : "test"),
        ]
        // What the page's script needs to connect, written into `<html>` at each render rather than stored in it.
        var html =
            last
            ? page.renderLastHTML(context: context, addingToStartTag: attributes)
            : page.renderHTML(context: context, addingToStartTag: attributes)
        if digestsRenders { storedRenderDigest = RenderDigest.seal(&html) }
        if !last { _ = page.takeChanges(context: context) }
        metrics?.recordRender(nanoseconds: DispatchTime.now().uptimeNanoseconds - start)
        return html
    }

    /// Reflects the title and status bar style in the layout, touching only what differs (a change of the
    /// `<html>` element itself is a `reset`).
    private func applyShell() {
        let style = viewController.statusBarStyle
        let other = style == .default ? StatusBarStyle.lightContent : StatusBarStyle.default
        if !page.classList.contains(style.className) || page.classList.contains(other.className) {
            var classes = page.classList
            classes.remove(other.className)
            // No class of the layout's own (or only the other style's): the shared list as it is, without making
            // a list of the one name first.
            if classes.isEmpty {
                page.classList = style.soleClassList
            } else {
                classes.insert(style.className)
                page.classList = classes == style.soleClassList ? style.soleClassList : classes
            }
        }
        if let themeColor, themeColor.attribute("content") != style.themeColor {
            themeColor.setAttribute("content", style.themeColor)
        }
        if let titleView, let title = viewController.title, titleView.text != title { titleView.text = title }
    }

    /// The view controller's title or status bar style changed: the shell follows, and open pages are told.
    func shellDidChange() {
        shellChanged = true
        applyShell()
        setNeedsFlush()
    }

    func setNeedsFlush() {
        guard !flushScheduled, !isEnded else { return }
        flushScheduled = true
        scheduleFlush?()
    }

    /// Sends what changed since the last flush: one `patch` for all dirty views, `title` and `navigate`.
    package func flush() {
        flushScheduled = false
        guard !isEnded else { return }
        // The context made only if a change renders with it (a label another screen rendered does not).
        var changes = page.takeChanges(makingContext: { self.context })
        // Whether a change replaces the page itself (the whole page goes as a `reset`) or the title (which goes as its
        // own event), each asked of the view in ViewKit; the list is edited only when it holds the title's, not on
        // every flush.
        let replacesPage = page.isReplaced(by: changes)
        let replacesTitle = titleView?.isReplaced(by: changes) ?? false
        if replacesPage {
            send(.reset(html: renderPage()))
            changes = []
        } else if replacesTitle, let titleView {
            changes.removeAll { if case .replace(let id, _) = $0 { titleView.hasDOMID(id) } else { false } }
        }
        if !changes.isEmpty { send(.patch(changes)) }
        if shellChanged {
            shellChanged = false
            if !viewController.title.hasSameUTF8(as: sentTitle) {
                sentTitle = viewController.title
                send(.title(sentTitle ?? ""))
            }
        }
        if let url = navigation.takePendingURLReplacement() {
            send(.url(url))
        }
        if let target = navigation.takePendingNavigation() {
            send(.navigate(target))
        }
        for id in answeredPosts { send(.ack(id)) }
        answeredPosts = []
    }

    /// Sends `event` to the streams and records it in the log after them: the log keeps the value the streams were
    /// given, not a copy beside it. Nothing records an event in between (``EventLog/record(_:)``'s contract): a
    /// stream's send calls nothing back on the screen (``ScreenEventTarget``), and the observer runs once the log has
    /// the event.
    private func send(_ event: ScreenEvent) {
        let entry = EventLog.entry(for: event, id: log.nextID)
        if case .patch = event { metrics?.recordPatch(bytes: entry.count) }
        if let eventDelay {
            streams.removeAll { $0.isClosed }
            let streams = streams
            Self.delayedEvents.asyncAfter(deadline: .now() + eventDelay) {
                for stream in streams { stream.send(entry) }
            }
        } else {
            // Each send answers whether its stream is open: the closed ones are forgotten after a send that found
            // one, not asked for before every event (two locks a shared stream's screen).
            var foundClosed = false
            for stream in streams where !stream.send(entry) { foundClosed = true }
            if foundClosed { streams.removeAll { $0.isClosed } }
        }
        log.record(entry)
        eventObserver?(event)
    }

    /// What became of an action post.
    package enum ActionOutcome: Sendable, Equatable {
        /// The button's `rx.tap` fired.
        case performed
        /// The screen has no enabled, visible button with that action (in that row).
        case unknownAction
        /// The post named a list row that is no longer there: nothing ran, and the screen says so.
        case rowGone
        /// A posted value was refused (the field named, or why); nothing changed.
        case refused(String)
    }

    /// One queue for every delayed event, so that they go out in the order they were sent.
    private static let delayedEvents = DispatchQueue(label: "screenplay.dev-latency")

    /// Fires the `rx.tap` of the button whose action is `action`. Returns false when the screen has no such action.
    package func perform(action: String) -> Bool {
        perform(action: action, row: nil, fields: [], answering: nil) == .performed
    }

    /// Runs an action post: the fields of the button's form take the posted values (all checked before any is set;
    /// a switch of the form not posted is off) and are marked touched, then the button's `rx.tap` fires, in this
    /// turn. `row` picks the button of the list row with that identity. `answering` is the post's id, acknowledged
    /// with an `ack` event after the patch the action causes.
    ///
    /// A screen no page watches catches up first (its held changes run), so the action acts on current state.
    package func perform(action: String, row: String?, fields: [(name: String, value: String)], answering: String?)
        -> ActionOutcome
    {
        ScreenScheduler.current?.catchUp()
        guard !isEnded else { return .unknownAction }
        if let answering {
            answeredPosts.append(answering)
            setNeedsFlush()
        }
        // While a controller is presented, the page behind is inert: actions reach its dialog only.
        let top = viewController.topPresentedViewController
        let base = top.presentingViewController?.presentationDialog ?? page
        let scope: View
        if let row {
            guard let rowView = base.listRow(withIdentity: row) else {
                showNotice("That item is no longer there; the list shows what is current.")
                return .rowGone
            }
            scope = rowView
        } else {
            scope = base
        }
        guard let button = scope.firstButton(withAction: action), button.isEnabled, !button.isHiddenInTree else {
            return .unknownAction
        }
        let formFields = button.enclosingForm?.fields ?? []
        var updates: [(Field, String?)] = []
        for (name, value) in fields {
            guard let field = formFields.first(where: { $0.name == name }) else {
                return .refused("This form has no field named “\(name.prefix(64))”.")
            }
            do { try field.validateInput(value) } catch { return .refused(error.description) }
            updates.append((field, value))
        }
        for field in formFields where field is Switch && !fields.contains(where: { $0.name == field.name }) {
            updates.append((field, nil))
        }
        for (field, value) in updates { try? field.applyInput(value, sequence: nil, event: .valueChanged) }
        button.enclosingForm?.markSubmitted()
        clearNotice()
        button.sendActions()
        return .performed
    }

    /// What became of an input event.
    package enum InputOutcome: Sendable, Equatable {
        case applied
        case unknownField
        case refused(String)
    }

    /// Applies a value the user typed into the field named `name` (``Field/applyInput(_:sequence:event:)``).
    package func input(field name: String, value: String, sequence: Int, event: ControlEvents) -> InputOutcome {
        ScreenScheduler.current?.catchUp()
        guard !isEnded, let field = page.field(named: name) else { return .unknownField }
        do {
            try field.applyInput(value, sequence: sequence, event: event)
        } catch {
            return .refused(error.description)
        }
        return .applied
    }

    /// Delivers what happened to an upload to the file field named `name` (``FileField/deliver(_:)``); false when the
    /// screen has no such file field (the event is dropped).
    package func deliverFile(field name: String, _ event: FileEvent) -> Bool {
        ScreenScheduler.current?.catchUp()
        guard !isEnded, let field = page.field(named: name) as? FileField else { return false }
        field.deliver(event)
        return true
    }

    /// Shows `message` in the layout's `notice` outlet (a `role="status"` region), if it has one.
    package func showNotice(_ message: String) {
        (page.outletIfPresent("notice") as? Label)?.text = message
    }

    private func clearNotice() {
        if let notice = page.outletIfPresent("notice") as? Label, !notice.text.isEmpty { notice.text = "" }
    }

    /// Where a form posted without JavaScript is answered (a `303`): the screen's own URL (``NavigationController/
    /// currentURL``) naming this session in its `screen` query parameter, so the address bar shows a URL that can be
    /// reloaded, bookmarked and shared (``ScreenRouter`` shows this screen for it while it lives, and a fresh screen
    /// of that URL after), and `modal=1` while a view controller is presented over it.
    package var addressWithoutScript: String {
        let url = navigation.currentURL
        var address = url + (url.contains("?") ? "&" : "?") + ScreenWire.Field.screen.rawValue + "=" + sessionID
        if viewController.presentedViewController != nil { address += "&" + ScreenWire.Field.modal.rawValue + "=1" }
        return address
    }

    /// The navigation the last action asked for, taken (so it is delivered once).
    package func navigationIntent() -> String? {
        navigation.pendingNavigation
    }

    /// Attaches a page's event stream: replays what it missed after `lastEventID` or sends `reset`, and makes the
    /// screen appear on its first connection. Returns whether the screen appeared now (its first stream).
    @discardableResult
    package func attach(_ stream: any ScreenEventTarget, lastEventID: Int?) -> Bool {
        guard !isEnded else {
            stream.close()
            return false
        }
        if let lastEventID, lastEventID != log.lastID {
            if let missed = log.events(after: lastEventID) {
                for entry in missed { stream.send(entry) }
            } else {
                let entry = log.append(.reset(html: renderPage()))
                for other in streams { other.send(entry) }
                stream.send(entry)
            }
        }
        streams.append(stream)
        return appearIfNeeded()
    }

    /// Runs `viewDidAppear(false)` once: the page is live. Returns whether it ran now.
    @discardableResult
    package func appearIfNeeded() -> Bool {
        guard !hasAppeared, !isEnded else { return false }
        hasAppeared = true
        viewController.performViewDidAppear(false)
        return true
    }

    /// Sends a development event (`dev-error`, `dev-ok`, `dev-stylesheet`) to the connected pages. It is not kept
    /// in the event log: a page that reconnects gets the current state from the application instead.
    package func sendDevelopmentEvent(_ name: String, data: String) {
        streams.removeAll { $0.isClosed }
        for stream in streams { stream.sendUnnumbered(event: name, data: data) }
    }

    /// Hands the connected streams over (to the screen rebuilt after a template reload) and forgets them, so that
    /// ending this screen leaves them open.
    package func takeStreams() -> [any ScreenEventTarget] {
        defer { streams = [] }
        return streams.filter { !$0.isClosed }
    }

    /// Sends `stream` what differs between `render`, the page it shows, and the page as it is now, as one `patch`
    /// (nothing when they are the same), or as a `reset` when the difference is outside every element with an id:
    /// for a page whose data changed between its render and its attach.
    @discardableResult
    package func attachWithDifference(from render: [UInt8], _ stream: any ScreenEventTarget) -> Bool {
        let html = renderPage()
        if let changes = RenderDifference.changes(from: render, to: html) {
            if !changes.isEmpty { stream.send(log.append(.patch(changes))) }
        } else {
            stream.send(log.append(.reset(html: html)))
        }
        return attach(stream, lastEventID: nil)
    }

    /// Sends the whole page to `stream` as a `reset`: for a page whose screen was rebuilt from its URL.
    @discardableResult
    package func attachWithReset(_ stream: any ScreenEventTarget) -> Bool {
        stream.send(log.append(.reset(html: renderPage())))
        return attach(stream, lastEventID: nil)
    }

    /// Forgets the streams that went away (read as closed); returns how many remain.
    package func detachClosedStreams() -> Int {
        streams.removeAll { $0.isClosed }
        return streams.count
    }

    /// How many streams the screen sends to (for tests).
    package var streamCount: Int { streams.count }

    /// Ends the screen: `viewWillDisappear` → `viewDidDisappear` → the bag disposed, streams closed.
    package func end() {
        guard !isEnded else { return }
        if flushScheduled { flush() }
        isEnded = true
        viewController.performViewWillDisappear(false)
        viewController.performViewDidDisappear(false)
        viewController.disposeBag()
        releaseHandlers()
        scheduleFlush = nil
        for stream in streams { stream.close() }
        streams = []
    }
}

@available(*, unavailable)
extension Screen: Sendable {}

extension View {
    /// The row, in any list of this subtree, whose identity reads `identity`.
    func listRow(withIdentity identity: String) -> View? {
        if let list = self as? ListView { return list.row(withIdentityDescription: identity) }
        for subview in liveSubviews {
            if let found = subview.listRow(withIdentity: identity) { return found }
        }
        return nil
    }

    /// The first button in this subtree whose action is `action`.
    func firstButton(withAction action: String) -> Button? {
        if let button = self as? Button, button.actionName == action { return button }
        for subview in liveSubviews {
            if let found = subview.firstButton(withAction: action) { return found }
        }
        return nil
    }
}
