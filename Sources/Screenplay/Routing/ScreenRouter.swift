internal import Dispatch
internal import FoundationEssentials
internal import HTTPServer
import Primitives
internal import Reactive
internal import ViewKit

/// Screen routing: the table of screen routes and the not-found screen, the render of a route's page (a GET), and
/// the building of a live screen (from a rendered page's token, or a page's screen asked for again by its URL).
///
/// Contract: a route is matched by its still-encoded path, in the order routes were added. A GET renders the page
/// and keeps nothing: its screen is ended before the page is answered, and the page carries a token
/// (``PageTokens``) from which ``adopt(screen:token:request:fromScript:)`` builds the live screen under the
/// same id. A live screen is in the session registry before anything is answered from it, and a screen that
/// fails while built is ended and never registered. The templates and layout screens are built with (its
/// ``ScreenAssembly``) are replaced whole, by ``install(_:)``; a screen being built keeps the one it started with.
/// Thread-safe.
final class ScreenRouter: Sendable {
    /// How screens are put together: the templates and the layout, replaced whole by a development reload.
    private let assembly: Locked<ScreenAssembly>
    private let routes = Locked<[ScreenRoute]>([])
    private let notFoundRoute = Locked<ScreenRoute?>(nil)
    /// The sign-in ``Application/use(_:)`` added, which fills every page's signed-in outlets.
    private let signIn = Locked<SignIn?>(nil)
    private let sessions: SessionRegistry
    /// Signs and checks the tokens of rendered pages.
    private let tokens: PageTokens
    /// The pages rendered lately, for the difference a stale page's attach receives.
    let recentRenders: RecentRenders
    private let configuration: SessionConfiguration
    /// Where screens count their renders and patches; nil when nothing is counted.
    private let metrics: Metrics?
    /// How long a screen's events are held back in development.
    private let eventDelay: DispatchTimeInterval?
    private let logger: Logger
    /// The logs of live screens' later mistakes, one for each view controller type (by its name).
    private let mistakeLogs = Locked<[String: ScreenMistakeLog]>([:])
    /// Whether a screen that fails while built answers with the development error page.
    private let isDevelopment: Bool

    init(
        assembly: ScreenAssembly, sessions: SessionRegistry, configuration: SessionConfiguration, metrics: Metrics?,
        eventDelay: DispatchTimeInterval?, logger: Logger, isDevelopment: Bool
    ) {
        self.assembly = Locked(assembly)
        self.sessions = sessions
        self.tokens = PageTokens(secret: configuration.tokenSecret)
        recentRenders = RecentRenders(budget: configuration.recentRenderBytes)
        self.configuration = configuration
        self.metrics = metrics
        self.eventDelay = eventDelay
        self.logger = logger
        self.isDevelopment = isDevelopment
    }

    /// The templates screens are built with now.
    var templates: TemplateLibrary { assembly.withLock { $0.templates } }

    /// Adds `route`, after checking it against the current templates.
    func add(_ route: ScreenRoute) throws {
        try route.validate(templates)
        routes.withLock { $0.append(route) }
    }

    /// Makes `route` the screen shown, with status 404, for unknown URLs, after checking it against the templates.
    func setNotFound(_ route: ScreenRoute) throws {
        try route.validate(templates)
        notFoundRoute.withLock { $0 = route }
    }

    /// The not-found screen's route, if there is one.
    var notFound: ScreenRoute? { notFoundRoute.withLock { $0 } }

    /// Fills every page's signed-in outlets from now on with `signIn`.
    func use(_ signIn: SignIn) {
        self.signIn.withLock { $0 = signIn }
    }

    /// Checks `reloaded` against every route and, when all of them accept its templates, builds screens with it
    /// from now on; throws the first route's complaint otherwise, and keeps the current assembly.
    func install(_ reloaded: ScreenAssembly) throws {
        for route in routes.withLock({ $0 }) { try route.validate(reloaded.templates) }
        if let notFound { try notFound.validate(reloaded.templates) }
        assembly.withLock { $0 = reloaded }
    }

    // MARK: Opening a screen

    /// The answer to a GET of `route`: its page, rendered under a new screen id that nothing is kept for (or the
    /// not-found screen's, 404), a redirect the guard or the factory asks for, or the failure (in development, the
    /// error page).
    ///
    /// A URL naming a screen (`?screen={sid}`, the answer to a form posted without JavaScript) shows that live
    /// screen's page, its state current, when this instance holds it for this browser at this path; otherwise the
    /// `screen` and `modal` parameters are dropped and a fresh screen of the URL is rendered (the session is gone:
    /// expired, or held by an instance restarted since).
    func open(_ route: ScreenRoute, request: Request) throws -> Response {
        if let refusal = try route.routeGuard?.answer(to: request, fromScript: false) { return refusal }
        if request.query.contains(ScreenWire.Field.screen.rawValue) {
            if let page = livePage(for: request) { return page }
            return try render(route, request: Self.droppingScreenParameters(request))
        }
        // Read where it is: a copy to reassign in the branch above retained each of its fields and let them go
        // (Benchmarks/History/73-page-instructions-13.md).
        return try render(route, request: request)
    }

    /// The page of a fresh screen of `route` for `request` (``open(_:request:)``), which names no live screen.
    private func render(_ route: ScreenRoute, request: Request) throws -> Response {
        var query: [String: String] = [:]
        for pair in request.query { query[pair.name] = pair.value }
        // A GET's screen renders its page and ends: its factory sees a request that is not live, made so here rather
        // than on a copy of it in `makeSession`.
        let (screenRequest, newBrowserID) = Self.screenRequest(
            for: request, url: request.target, path: request.path, parameters: request.parameters, query: query,
            isLive: false)
        let built: BuiltScreen
        do {
            built = try build(route, request: screenRequest, keeping: .renderOnly)
        } catch let redirect as ScreenRedirect {
            var response = Response.redirect(to: redirect.location)
            response.headers["Cache-Control"] = "no-store"
            Self.setCookies(on: &response, for: screenRequest, newBrowserID: newBrowserID)
            return response
        } catch let failure as ScreenBuildFailure {
            logger.log(
                .error, "screen.failed",
                [
                    "screen": failure.controllerName, "path": screenRequest.path, "step": failure.steps.last ?? "-",
                    "error": "\(failure.error)", "request_id": request.requestID,
                ])
            guard isDevelopment else { throw failure }
            var response = Response.html(
                bytes: Array(DevelopmentErrorPage(failure: failure, url: screenRequest.url).html.utf8),
                status: .internalServerError)
            response.headers["Cache-Control"] = "no-store"
            return response
        }
        if let digest = built.digest { recentRenders.keep(built.html, digest: digest) }
        logger.log(
            .info, "page.rendered",
            [
                "session": built.session.id, "path": screenRequest.path, "screen": route.controllerName,
                "status": "\(built.status.code)",
            ])
        var response = Response.html(bytes: built.html, status: built.status)
        response.headers["Cache-Control"] = "no-store"
        Self.setCookies(on: &response, for: screenRequest, newBrowserID: newBrowserID)
        return response
    }

    /// The page of the live screen `request`'s `screen` parameter names, when this instance holds it, for the
    /// browser `request` comes from (its token verifies), at the path it asks for.
    private func livePage(for request: Request) -> Response? {
        guard let id = request.query[ScreenWire.Field.screen.rawValue], let session = sessions.session(id: id),
            let browser = Self.browserID(of: request),
            SessionToken.equal(tokens.token(screen: id, url: session.url, browser: browser), session.csrfToken),
            Self.path(of: session.url) == Self.path(of: request.target)
        else { return nil }
        let html = session.perform { screen -> [UInt8] in
            ScreenScheduler.current?.catchUp()
            screen.flush()
            return screen.renderPage()
        }
        guard let html else { return nil }
        var response = Response.html(bytes: html)
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// `url` up to its query.
    private static func path(of url: String) -> Substring {
        url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    }

    /// `request` without the `screen` and `modal` query parameters, in its query and its target.
    private static func droppingScreenParameters(_ request: Request) -> Request {
        let dropped: Set<String> = [ScreenWire.Field.screen.rawValue, ScreenWire.Field.modal.rawValue]
        var request = request
        request.query = QueryParameters(request.query.pairs.filter { !dropped.contains($0.name) })
        let parts = request.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        if parts.count == 2 {
            let kept = parts[1].split(separator: "&").filter { piece in
                let name = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                return !dropped.contains(String(name))
            }
            request.target = String(parts[0]) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
        }
        return request
    }

    /// What becomes of a built screen.
    enum Keeping {
        /// Its page is rendered and the screen ended: a GET.
        case renderOnly
        /// It lives under a new id: a page's screen rebuilt from its URL.
        case live
        /// It lives under `id`, the id its page was rendered under, unless a screen lives under that id already (which
        /// is then answered, and this one ended).
        case adopted(id: String)
    }

    /// A screen built for a request (``build(_:request:keeping:)``): its session, the page it rendered, the page's
    /// status, and the digest its render wrote on the page (``RenderDigest``; nil when renders are not digested),
    /// handed over rather than read back from the page's bytes.
    struct BuiltScreen {
        let session: ScreenSession
        let html: [UInt8]
        let status: HTTPStatus
        let digest: UInt64?
    }

    /// Builds a screen for `request` and renders its page, the not-found screen when the factory throws
    /// ``ScreenNotFound``; then keeps it or ends it as `keeping` says.
    func build(_ route: ScreenRoute, request: ScreenRequest, keeping: Keeping = .live) throws -> BuiltScreen {
        do {
            let (session, html, digest) = try makeSession(route: route, request: request, keeping: keeping)
            return BuiltScreen(session: session, html: html, status: .ok, digest: digest)
        } catch let failure as ScreenBuildFailure {
            if let error = failure.error as? HTTPError { throw error }
            if let redirect = failure.error as? ScreenRedirect { throw redirect }
            guard let error = failure.error as? ScreenNotFound else { throw failure }
            guard let notFound else { throw HTTPError(.notFound, message: error.description) }
            let (session, html, digest) = try makeSession(route: notFound, request: request, keeping: keeping)
            return BuiltScreen(session: session, html: html, status: .notFound, digest: digest)
        }
    }

    private func makeSession(route: ScreenRoute, request: ScreenRequest, keeping: Keeping) throws -> (
        ScreenSession, [UInt8], UInt64?
    ) {
        let rendersOnly: Bool
        if case .renderOnly = keeping { rendersOnly = true } else { rendersOnly = false }
        // A render's factory sees a request that is not live. A request that is so already (a GET's) is built from as
        // it is: a copy of it to change, and the copy the closure below took of that `var`, cost each of its fields'
        // references a retain and a release (Benchmarks/History/58-page-instructions-8.md).
        if rendersOnly && request.isLive {
            var notLive = request
            notLive.isLive = false
            return try makeSession(route: route, request: notLive, keeping: keeping)
        }
        let id: String
        if case .adopted(let adopted) = keeping { id = adopted } else { id = configuration.newID() }
        // The scheduler is labelled with the session's id: its screen's later mistakes are logged under it
        // (`ScreenMistakeLog`), and a confinement check names it.
        let session = ScreenSession(
            id: id, csrfToken: tokens.token(screen: id, url: request.url, browser: request.browserID),
            url: request.url, scheduler: ScreenScheduler(label: id), routeGuard: route.routeGuard)
        let failure = session.catchFailures()
        let (html, digest) = try session.scheduler.sync { () throws -> ([UInt8], UInt64?) in
            // A render's screen ends below, before anything else renders it or takes its changes: its views mark no
            // path to their changes while it is built.
            func build() throws -> ([UInt8], UInt64?) {
                let screen = try makeScreen(route: route, request: request, session: session)
                session.install(screen)
                let html = screen.renderPage(last: rendersOnly)
                return (html, screen.renderDigest)
            }
            return rendersOnly ? try View.buildingForOneRender(build) : try build()
        }
        // A mistake of the screen's code while it was built (a binder gone, a list with duplicate identities) fails
        // this page load, as a factory that throws does, and the screen with it.
        if let mistake = failure.withLock({ $0 }) {
            session.end()
            throw ScreenBuildFailure(
                error: mistake, controllerName: route.controllerName, templateName: route.templateName,
                steps: [
                    "route \(route.pattern) matched \(request.path)", "factory of \(route.controllerName)",
                    "viewDidLoad and the binder's bindings",
                ])
        }
        // A render keeps nothing: the screen ends (its bag disposed, its observations stopped) before the page goes.
        if case .renderOnly = keeping {
            session.endNow()
            return (session, html, digest)
        }
        // Later mistakes (in a binder's callback, say) did nothing where they happened; they are logged, naming the
        // screen (its session by the scheduler's label, the id), and the screen goes on. The log is its type's, shared.
        let mistakeLog = mistakeLog(named: route.controllerName)
        session.scheduler.onProgrammerError { [mistakeLog] mistake in mistakeLog.log(mistake) }
        let kept = sessions.insertIfAbsent(session)
        if kept !== session {
            session.end()
        } else {
            logger.log(
                .info, "session.opened", ["session": id, "path": request.path, "screen": route.controllerName])
        }
        return (kept, html, digest)
    }

    /// The log of the later mistakes of live screens of the view controller type `name`.
    private func mistakeLog(named name: String) -> ScreenMistakeLog {
        mistakeLogs.withLock { logs in
            if let log = logs[name] { return log }
            let log = ScreenMistakeLog(logger: logger, screenName: name)
            logs[name] = log
            return log
        }
    }

    /// Builds `route`'s screen for `session` on its scheduler. A factory that throws is reported with the lifecycle
    /// steps reached (the route, then the factory); what follows it (loading the view, the binder's bindings) does
    /// not throw.
    func makeScreen(route: ScreenRoute, request: ScreenRequest, session: ScreenSession) throws -> Screen {
        let screen: Screen
        do {
            screen = try assembly.withLock { $0 }.makeScreen(
                request: request, backURL: route.parent, sessionID: session.id, csrfToken: session.csrfToken,
                signIn: signIn.withLock { $0 }, factory: route.factory)
        } catch {
            // Named for a failure only: a page that is served builds none of these strings.
            let steps = ["route \(route.pattern) matched \(request.path)", "factory of \(route.controllerName)"]
            throw ScreenBuildFailure(
                error: error, controllerName: route.controllerName, templateName: route.templateName, steps: steps)
        }
        screen.metrics = metrics
        screen.eventDelay = eventDelay
        return screen
    }

    /// The route `url` matches and the request its factory gets; `request`, when given, is the HTTP request that asks
    /// for the screen again (an attach after a restart), whose headers and cookies the factory sees. With
    /// `orNotFound`, a URL no route matches gets the not-found screen's route, as its GET did.
    func route(forURL url: String, request: Request? = nil, orNotFound: Bool = false) -> (ScreenRoute, ScreenRequest)? {
        guard url.hasPrefix("/"), !url.hasPrefix("//"), let components = URLComponents(string: url) else {
            return nil
        }
        let path = components.percentEncodedPath
        var matched: (ScreenRoute, [String: String])?
        for route in routes.withLock({ $0 }) {
            if let parameters = route.match(path) {
                matched = (route, parameters)
                break
            }
        }
        if matched == nil, orNotFound, let notFound { matched = (notFound, [:]) }
        guard let (route, parameters) = matched else { return nil }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] { query[item.name] = item.value ?? "" }
        guard let request else {
            return (route, ScreenRequest(url: url, path: path, parameters: parameters, query: query))
        }
        let (screenRequest, _) = Self.screenRequest(
            for: request, url: url, path: path, parameters: parameters, query: query)
        return (route, screenRequest)
    }

    // MARK: Adopting a rendered page

    /// What a post or an attach naming a screen this instance does not hold finds, from the page's token.
    enum Adoption {
        /// The page's screen, live now under the id the page was rendered under (or live under it already), and the
        /// digest of the render it made (``RenderDigest``). When the page's id names another instance (it was rendered
        /// there, and this one was reached instead: a shared stream held here, or that instance gone), the screen
        /// lives under a new id of this instance, which the page must be told (its token names the old one).
        case adopted(ScreenSession, renderDigest: UInt64?)
        /// The route's guard does not let this request in: its answer.
        case refused(Response)
        /// The token does not verify for that screen, URL and browser, or the URL names no screen.
        case unknown
    }

    /// Builds the live screen of a page rendered as screen `id`, when `token` is that page's token for the browser
    /// `request` comes from, at the URL the token names, through the route's guard (answered for a script's request
    /// when `fromScript`).
    func adopt(screen id: String, token: String, request: Request, fromScript: Bool) throws -> Adoption {
        guard let browser = Self.browserID(of: request), let url = tokens.url(of: token, screen: id, browser: browser),
            let (route, screenRequest) = route(forURL: url, request: request, orNotFound: true)
        else { return .unknown }
        if let refusal = try route.routeGuard?.answer(to: request, fromScript: fromScript) { return .refused(refusal) }
        // An id of another instance is never taken here: the proxy sends that id's posts to that instance, which
        // would build a second screen under it.
        let keeping: Keeping = configuration.isOwnID(id) ? .adopted(id: id) : .live
        let built = try build(route, request: screenRequest, keeping: keeping)
        return .adopted(built.session, renderDigest: built.digest)
    }

    /// Whether `token` is the token of a page rendered as screen `id` for the browser `request` comes from, at a URL
    /// whose route's guard lets the request in: ``adopt(screen:token:request:fromScript:)``'s checks without building
    /// the screen (for one another instance holds).
    func admits(screen id: String, token: String, request: Request, fromScript: Bool) throws -> Bool {
        guard let browser = Self.browserID(of: request), let url = tokens.url(of: token, screen: id, browser: browser),
            let (route, _) = route(forURL: url, request: request, orNotFound: true)
        else { return false }
        return try route.routeGuard?.answer(to: request, fromScript: fromScript) == nil
    }

    // MARK: Requests

    /// The cookie that names a browser (``ScreenRequest/browserID``).
    static let browserCookie = "screenplay_browser"

    /// The browser's identity `request` names in its cookie, when it is a well-formed one.
    static func browserID(of request: Request) -> String? {
        guard let sent = request.cookies[browserCookie], sent.utf8.count == 22,
            sent.utf8.allSatisfy({ SessionToken.isTokenByte($0) })
        else { return nil }
        return sent
    }

    /// What a screen factory sees of `request`, at `url`: its headers, cookies, address and the browser's identity
    /// (a new one when the browser has none yet, or a malformed one).
    private static func screenRequest(
        for request: Request, url: String, path: String, parameters: [String: String], query: [String: String],
        isLive: Bool = true
    ) -> (ScreenRequest, newBrowserID: String?) {
        let sent = browserID(of: request)
        let isValid = sent != nil
        let browserID = sent ?? SessionToken.make()
        let isSecure = request.headers["x-forwarded-proto"]?.lowercased() == "https"
        var screenRequest = ScreenRequest(
            url: url, path: path, parameters: parameters, query: query, headers: request.headers,
            cookies: request.cookies, peer: request.peer, browserID: browserID, isSecure: isSecure)
        screenRequest.isLive = isLive
        return (screenRequest, isValid ? nil : browserID)
    }

    /// The cookies a screen's first response sets: the browser's new identity, and the factory's.
    private static func setCookies(on response: inout Response, for request: ScreenRequest, newBrowserID: String?) {
        if let newBrowserID {
            var cookie = Cookie(name: browserCookie, value: newBrowserID, maxAge: .seconds(365 * 24 * 3600))
            cookie.isSecure = request.isSecure
            response.setCookie(cookie)
        }
        for cookie in request.cookiesToSet { response.setCookie(cookie) }
    }
}
