internal import Dispatch
internal import FoundationEssentials
internal import HTTPServer
internal import Reactive
internal import ViewKit

/// Posts to a live screen: actions (a button's `rx.tap`), input events, the close beacon, and the session's page that
/// answers a form posted without JavaScript.
///
/// Contract: every post is checked on the I/O thread (same origin, the session's CSRF token, its route's guard)
/// before it reaches the screen; the screen's work runs on its scheduler, at once when the screen is idle and
/// otherwise in a deferred answer, so an I/O thread never waits behind a busy screen. Thread-safe.
final class ScreenActions: Sendable {
    let sessions: SessionRegistry
    /// Finds the screen a post to an ended session came from.
    private let router: ScreenRouter
    /// How long posts are held back in development (`OperationsConfiguration.developmentLatency`).
    private let postDelay: DispatchTimeInterval?

    init(sessions: SessionRegistry, router: ScreenRouter, postDelay: DispatchTimeInterval?) {
        self.sessions = sessions
        self.router = router
        self.postDelay = postDelay
    }

    private enum ActionResult: Sendable {
        case outcome(Screen.ActionOutcome, navigation: String?, cookies: [Cookie], address: String)
    }

    /// The names of an input post's form.
    private static let inputFormNames: Set<String> = [
        ScreenWire.Field.csrf, .name, .value, .seq, .event,
    ].reduce(into: []) { $0.insert($1.rawValue) }

    /// The names an action post uses for itself; every other name is a field of the button's form.
    private static let reservedFormNames: Set<String> = [
        ScreenWire.Field.csrf.rawValue, ScreenWire.Field.actionID.rawValue,
    ]

    /// The live screen a script's post (input, rows) names, its token checked: the one this instance holds, or the
    /// one built now from its page's token. Throws `403` with `refusal` for a token that does not verify, and when
    /// the route's guard no longer lets the browser in.
    func scriptSession(_ id: String, form: FormParameters, request: Request, refusal: String) throws -> ScreenSession {
        switch try liveSession(id, form: form, request: request, fromScript: true) {
        case .adopted(let session, _):
            // A screen built under a new id (the page's names another instance) had the page's token checked as it
            // was built.
            guard session.id != id || SessionToken.equal(form[ScreenWire.Field.csrf.rawValue] ?? "", session.csrfToken)
            else { throw HTTPError(.forbidden, message: refusal) }
            return session
        case .refused:
            throw HTTPError(.forbidden, message: "This screen's guard no longer lets it in. Reload the page.")
        case .unknown:
            throw HTTPError(.forbidden, message: refusal)
        }
    }

    /// The live screen `id` names: the one this instance holds, or the one its page's token (the post's `csrf`)
    /// builds now, for a page rendered by a GET that is posted to before (or without) its stream.
    func liveSession(_ id: String, form: FormParameters, request: Request, fromScript: Bool) throws
        -> ScreenRouter.Adoption
    {
        if let session = sessions.session(id: id) { return .adopted(session, renderDigest: nil) }
        guard let token = form[ScreenWire.Field.csrf.rawValue] else { return .unknown }
        return try router.adopt(screen: id, token: token, request: request, fromScript: fromScript)
    }

    /// The live screen `id` names, as ``liveSession(_:form:request:fromScript:)`` finds it, from the page's token.
    func liveSession(_ id: String, token: String, request: Request) throws -> ScreenRouter.Adoption {
        if let session = sessions.session(id: id) { return .adopted(session, renderDigest: nil) }
        return try router.adopt(screen: id, token: token, request: request, fromScript: false)
    }

    /// `POST /screens/{sid}/actions/{action}` (`csrf`, `_aid` and the button's form): fires the action on its
    /// screen, built from the page's token when this instance holds none (a page posted to without JavaScript, or
    /// before its stream attached). A script's post is answered `204` (with `Screenplay-Navigate` when the screen
    /// navigated), a plain form's with a `303`. A post whose token does not verify for this browser (forged, altered,
    /// another browser's, or signed with a key this instance does not have) is refused with `403`.
    func performAction(_ request: Request) throws -> Response {
        guard request.isSameOrigin else { throw HTTPError(.forbidden, message: "Cross-origin action refused.") }
        let fromScript =
            request.headers[ScreenWire.Header.requestedWith.rawValue] == ScreenWire.requestedWithFetch
            || request.headers["accept"]?.contains("text/event-stream") == true
        guard let pageID = request.parameters["sid"], let action = request.parameters["action"] else {
            return .redirect(to: fallbackURL(for: request))
        }
        let form = try request.form()
        let session: ScreenSession
        switch try liveSession(pageID, form: form, request: request, fromScript: fromScript) {
        case .adopted(let live, _): session = live
        case .refused(let answer): return answer
        case .unknown:
            throw HTTPError(.forbidden, message: "This action's token is not valid. Reload the page and try again.")
        }
        // The id the screen lives under: the page's, unless the page's names another instance.
        let id = session.id
        let token = form[ScreenWire.Field.csrf.rawValue] ?? ""
        // A screen built under a new id had the page's token checked as it was built.
        guard id != pageID || SessionToken.equal(token, session.csrfToken) else {
            throw HTTPError(.forbidden, message: "This action's token is not valid. Reload the page and try again.")
        }
        if let answer = try session.routeGuard?.answer(to: request, fromScript: fromScript) {
            sessions.end(id: id, reason: .navigated)
            return answer
        }
        let postID = try Self.postID(form[ScreenWire.Field.actionID.rawValue])
        let fields = form.filter { !Self.reservedFormNames.contains($0.name) }.map { (name: $0.name, value: $0.value) }
        let row = request.query[ScreenWire.Field.row.rawValue]
        let perform = { @Sendable (screen: Screen) -> ActionResult in
            let outcome = screen.perform(action: action, row: row, fields: fields, answering: postID)
            return .outcome(
                outcome, navigation: outcome == .performed ? screen.navigationIntent() : nil,
                cookies: screen.viewController.takeCookies(), address: screen.addressWithoutScript)
        }
        let answer = { @Sendable [sessions] (result: ActionResult?) throws -> Response in
            guard case .outcome(let outcome, let navigation, let cookies, let address)? = result else {
                return .redirect(to: session.url)
            }
            var response: Response
            switch outcome {
            case .unknownAction:
                throw HTTPError(.notFound, message: "This screen has no action named “\(action.prefix(64))”.")
            case .refused(let message):
                throw HTTPError(.badRequest, message: message)
            case .performed, .rowGone:
                if let navigation {
                    sessions.end(id: id, reason: .navigated)
                    if fromScript {
                        response = Response.noContent
                        response.headers[ScreenWire.Header.navigate.rawValue] = navigation
                    } else {
                        response = .redirect(to: navigation)
                    }
                } else {
                    // Without JavaScript the form's post answers with the same screen session, its local state and
                    // typed values kept: a 303 to the screen's own URL naming that session (`?screen=`).
                    response = fromScript ? .noContent : .redirect(to: address)
                }
            }
            for cookie in cookies { response.setCookie(cookie) }
            return response
        }
        return try onScreen(session, request: request, perform, then: answer)
    }

    /// An input event: the value of one field, as the user types (debounced by the page's script), on blur or Enter.
    ///
    /// The form: `csrf` (the page's token, from which the screen is built when this instance holds none), `name`
    /// (the field's), `value`, `seq` (increasing per field; an older one is dropped) and `event` (`change`, `end` or
    /// `primary`). Answers 204; 400 for an unknown field or a value the field refuses,
    /// 403 for a token that does not verify or another origin, 413 past the body limit.
    func applyInput(_ request: Request) throws -> Response {
        typealias Field = ScreenWire.Field
        guard request.isSameOrigin else { throw HTTPError(.forbidden, message: "Cross-origin input refused.") }
        guard let id = request.parameters["sid"] else {
            throw HTTPError(.notFound, message: "This screen has ended. Reload the page.")
        }
        let form = try request.form()
        let session = try scriptSession(
            id, form: form, request: request,
            refusal: "This input's token is not valid. Reload the page and try again.")
        switch session.routeGuard?.decision(for: request) {
        case .refuse(let status, let message)?: throw HTTPError(status, message: message)
        case .redirect?:
            throw HTTPError(.forbidden, message: "This screen's guard no longer lets it in. Reload the page.")
        case .allow?, nil: break
        }
        for pair in form where !Self.inputFormNames.contains(pair.name) {
            throw HTTPError(.badRequest, message: "An input event has no parameter “\(pair.name.prefix(64))”.")
        }
        guard let name = form[Field.name.rawValue], let value = form[Field.value.rawValue] else {
            throw HTTPError(.badRequest, message: "An input event needs a name and a value.")
        }
        guard let sequence = Int(form[Field.seq.rawValue] ?? ""), sequence > 0 else {
            throw HTTPError(.badRequest, message: "An input event needs a positive seq.")
        }
        let event: ControlEvents
        switch ScreenWire.InputEvent(rawValue: form[Field.event.rawValue] ?? ScreenWire.InputEvent.change.rawValue) {
        case .change?: event = .editingChanged
        case .end?: event = .editingDidEnd
        case .primary?: event = .primaryActionTriggered
        case nil: throw HTTPError(.badRequest, message: "An input event is change, end or primary.")
        }
        let perform = { @Sendable (screen: Screen) -> Screen.InputOutcome in
            screen.input(field: name, value: value, sequence: sequence, event: event)
        }
        let answer = { @Sendable (result: Screen.InputOutcome?) throws -> Response in
            switch result {
            case nil: throw HTTPError(.notFound, message: "This screen has ended. Reload the page.")
            case .unknownField?:
                throw HTTPError(.badRequest, message: "This screen has no field named “\(name.prefix(64))”.")
            case .refused(let message)?: throw HTTPError(.badRequest, message: message)
            case .applied?: return .noContent
            }
        }
        return try onScreen(session, request: request, perform, then: answer)
    }

    /// The page of a live session, as a form post without JavaScript is answered: the same screen, its state
    /// current. A session that has ended sends the browser back where it came from.
    func showSessionPage(_ request: Request) throws -> Response {
        guard let id = request.parameters["sid"], let session = sessions.session(id: id) else {
            return .redirect(to: fallbackURL(for: request))
        }
        let html = session.perform { screen -> [UInt8] in
            ScreenScheduler.current?.catchUp()
            screen.flush()
            return screen.renderPage()
        }
        guard let html else { return .redirect(to: fallbackURL(for: request)) }
        var response = Response.html(bytes: html)
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// `POST /screens/{sid}/close` (`csrf`): the page is going away (`pagehide`); the screen disappears and ends now
    /// rather than when its time to live runs out. `204` too when no screen is held under that id (the page never
    /// went live, or its screen already ended): nothing changes.
    func closeScreen(_ request: Request) throws -> Response {
        guard request.isSameOrigin else { throw HTTPError(.forbidden, message: "Cross-origin request refused.") }
        guard let id = request.parameters["sid"] else { throw HTTPError(.notFound, message: "No such screen.") }
        // A page that never went live (its stream never attached, a prefetch never shown), or whose screen has
        // already ended (an action navigated): nothing is held, so nothing to close.
        guard let session = sessions.session(id: id) else { return .noContent }
        guard SessionToken.equal(try request.form()[ScreenWire.Field.csrf.rawValue] ?? "", session.csrfToken) else {
            throw HTTPError(.forbidden, message: "This screen's token is not valid. Reload the page and try again.")
        }
        sessions.end(id: id, reason: .closed)
        return .noContent
    }

    /// Runs `perform` on the session's screen and answers with `answer` of its result.
    ///
    /// A screen with nothing queued runs it on this thread at once (a hop to another thread and back adds two thread
    /// wake-ups to the round trip). A busy one answers from its turn: an I/O thread never waits for a busy screen (a
    /// change fanned out to thousands of screens queues a turn on each), which would hold up every request of its
    /// connections, and with a thread per core a few such waits the whole server. In development, `--dev-latency`
    /// delays the work as a distant user's post would be.
    func onScreen<T: Sendable>(
        _ session: ScreenSession, request: Request, _ perform: @escaping @Sendable (Screen) -> T,
        then answer: @escaping @Sendable (T?) throws -> Response
    ) throws -> Response {
        if let latency = postDelay {
            return .deferred { pending in
                DispatchQueue.global().asyncAfter(deadline: .now() + latency) {
                    session.performLater(perform) { result in pending.respond { try answer(result) } }
                }
            }
        }
        if session.scheduler.isIdle {
            return try answer(session.perform(perform))
        }
        return .deferred { pending in
            session.performLater(perform) { result in pending.respond { try answer(result) } }
        }
    }

    /// A post's id (`_aid`): up to 64 letters, digits, `-` and `_`.
    private static func postID(_ value: String?) throws -> String? {
        guard let value else { return nil }
        guard !value.isEmpty, value.utf8.count <= 64,
            value.utf8.allSatisfy({
                $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0)
                    || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
            })
        else { throw HTTPError(.badRequest, message: "An action's _aid is up to 64 letters, digits, - and _.") }
        return value
    }

    /// Where a post to an unknown session goes: the page it came from, when that is a screen of this site.
    private func fallbackURL(for request: Request) -> String {
        if let referer = request.headers["referer"], let components = URLComponents(string: referer),
            components.host == nil || request.headers["host"]?.hasPrefix(components.host ?? "") == true
        {
            let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            let url = path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
            if router.route(forURL: url) != nil { return url }
        }
        return "/"
    }
}
