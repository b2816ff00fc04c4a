internal import FoundationEssentials
internal import HTTPServer
import Primitives
internal import Reactive

/// The browsers' shared event streams: one event stream per browser (`GET /streams`), to which each of its tabs
/// attaches its screens, so the six connections a browser allows an origin are never taken by event streams.
///
/// Contract: a stream is in the table from its greeting until its connection closes; attach and detach posts are
/// same-origin and carry the screen's CSRF token; an attach of a screen this instance does not hold builds it from
/// the page's token (through its route's guard), or rebuilds it from its URL and resets its page. Thread-safe.
final class SharedStreams: Sendable {
    /// The open streams, by id.
    private let streams = Locked<[String: SharedStream]>([:])
    private let sessions: SessionRegistry
    /// Rebuilds a screen an attach names but this instance does not hold.
    private let router: ScreenRouter
    /// Shows a page that attaches the current template error.
    private let development: DevelopmentReload
    private let configuration: SessionConfiguration
    /// The client's version, which a stream's greeting names.
    private let clientVersion: String
    /// Where streams are counted; nil when nothing is counted.
    private let metrics: Metrics?
    private let logger: Logger

    init(
        sessions: SessionRegistry, router: ScreenRouter, development: DevelopmentReload,
        configuration: SessionConfiguration, clientVersion: String, metrics: Metrics?, logger: Logger
    ) {
        self.sessions = sessions
        self.router = router
        self.development = development
        self.configuration = configuration
        self.clientVersion = clientVersion
        self.metrics = metrics
        self.logger = logger
    }

    /// How many screens each open stream carries.
    var screenCounts: [Int] { streams.withLock { $0.values.map(\.screenCount) } }

    /// `GET /streams`: opens a shared stream; its first event names it.
    func openSharedStream(_ request: Request) throws -> Response {
        guard request.isSameOrigin else { throw HTTPError(.forbidden, message: "Cross-origin stream refused.") }
        let stream = EventStream()
        let shared = SharedStream(id: configuration.newID(), stream: stream, capacity: configuration.screensPerStream)
        streams.withLock { $0[shared.id] = shared }
        stream.onClose { [weak self, id = shared.id] in
            self?.streams.withLock { $0[id] = nil }
        }
        if let metrics {
            metrics.streamOpened()
            stream.onClose { [metrics] in metrics.streamClosed() }
        }
        shared.sendGreeting(client: clientVersion)
        return .eventStream(stream)
    }

    /// `POST /streams/{stream}/screens` (`screen`, `csrf`, `url`, `last`, `version`, `render`): attaches a tab's
    /// screen to the stream and replays what the tab missed after `last`. A screen this instance does not hold is
    /// built from the page's token (``ScreenRouter/adopt(screen:token:request:fromScript:)``) and the page reset
    /// only when its `render` digest is not the new screen's; when the token does not verify, a fresh screen is
    /// rebuilt from `url` under a new id and reset. A client of another protocol version is refused with `409` (it
    /// reloads its page).
    func attachScreen(_ request: Request) throws -> Response {
        let (shared, form) = try sharedStreamRequest(request)
        guard form[ScreenWire.Field.version.rawValue] == Self.wireVersion else {
            throw HTTPError(
                .conflict,
                message: "This page speaks another version of the wire protocol than the server's "
                    + "(\(ScreenWire.version)). Reload the page.")
        }
        guard let screenID = form[ScreenWire.Field.screen.rawValue], !screenID.isEmpty else {
            throw HTTPError(.badRequest, message: "An attach request names its screen (`screen`).")
        }
        var lastEventID: Int?
        if let last = form[ScreenWire.Field.last.rawValue], !last.isEmpty {
            guard let value = Int(last), value >= 0 else {
                throw HTTPError(.badRequest, message: "`last` is the last event id the page applied: a number.")
            }
            lastEventID = value
        }
        if let session = sessions.session(id: screenID) {
            try checkToken(form, of: session)
            let attachment = try attach(session.id, to: shared)
            session.streamConnected(attachment)
            // Not waiting for the screen's scheduler (see `attachLater`): the stream keeps what is sent before then.
            session.attachLater(attachment, lastEventID: lastEventID) { [self] appeared in
                if appeared { logAppearance(of: session) }
                development.sendPendingDevelopmentError(to: attachment)
            }
            return .noContent
        }
        guard let url = form[ScreenWire.Field.url.rawValue] else {
            throw HTTPError(.notFound, message: "No such screen.")
        }
        guard shared.screenCount < shared.capacity else { throw Self.streamFull(shared) }
        // A rendered page going live: its screen is built from its token under the id it was rendered under, and the
        // page is reset only when the data changed since its render.
        switch try router.adopt(
            screen: screenID, token: form[ScreenWire.Field.csrf.rawValue] ?? "", request: request, fromScript: true)
        {
        case .adopted(let session, let renderDigest):
            let attachment: SharedStreamAttachment
            do { attachment = try attach(session.id, to: shared) } catch {
                sessions.end(id: session.id, reason: .closed)
                throw error
            }
            // Built under a new id (the page's names another instance): the page learns it, and its new token, from
            // the reset.
            if session.id != screenID { shared.announceRebuild(of: screenID, as: session.id) }
            session.streamConnected(attachment)
            // The page's render is needed no more once its stream is here (nor kept: a live screen renders itself).
            let pageDigest = form[ScreenWire.Field.render.rawValue] ?? ""
            let kept = router.recentRenders.take(pageDigest)
            // The page's digits against the render's, as the page carries them: a screen whose renders are not
            // digested matches only a page that names none.
            guard session.id == screenID, (renderDigest.map(RenderDigest.digits(of:)) ?? "") == pageDigest else {
                // The data changed since the render: the difference as patches when the render is still kept here,
                // the whole page otherwise.
                let rendered = session.id == screenID ? kept : nil
                let appeared =
                    rendered.map { session.attachWithDifference(from: $0, attachment) }
                    ?? session.attachWithReset(attachment)
                if appeared == true { logAppearance(of: session) }
                development.sendPendingDevelopmentError(to: attachment)
                return .noContent
            }
            session.attachLater(attachment, lastEventID: lastEventID) { [self] appeared in
                if appeared { logAppearance(of: session) }
                development.sendPendingDevelopmentError(to: attachment)
            }
            return .noContent
        case .refused:
            throw HTTPError(.forbidden, message: "This screen's guard does not let it in. Reload the page.")
        case .unknown:
            break
        }
        // Unknown screen whose token does not verify (another key, another browser, altered): a fresh screen rebuilt
        // from its URL under a new id, announced, and reset.
        guard let (route, screenRequest) = router.route(forURL: url, request: request, orNotFound: true) else {
            throw HTTPError(.notFound, message: "No such screen.")
        }
        // A guarded screen is rebuilt only for a browser its guard lets in.
        if route.routeGuard.map({ $0.decision(for: request) != .allow }) ?? false {
            throw HTTPError(.forbidden, message: "This screen's guard does not let it in. Reload the page.")
        }
        let session = try router.build(route, request: screenRequest).session
        let attachment: SharedStreamAttachment
        do { attachment = try attach(session.id, to: shared) } catch {
            sessions.end(id: session.id, reason: .closed)
            throw error
        }
        shared.announceRebuild(of: screenID, as: session.id)
        session.streamConnected(attachment)
        if session.attachWithReset(attachment) == true { logAppearance(of: session) }
        development.sendPendingDevelopmentError(to: attachment)
        return .noContent
    }

    /// `POST /streams/{stream}/detach` (`screen`, `csrf`): the screen's events stop on that stream.
    func detachScreen(_ request: Request) throws -> Response {
        let (shared, form) = try sharedStreamRequest(request)
        guard let screenID = form["screen"], !screenID.isEmpty else {
            throw HTTPError(.badRequest, message: "A detach request names its screen (`screen`).")
        }
        guard let session = sessions.session(id: screenID) else {
            throw HTTPError(.notFound, message: "No such screen.")
        }
        try checkToken(form, of: session)
        guard let attachment = shared.attachment(of: screenID) else {
            throw HTTPError(.notFound, message: "This screen is not attached to this stream.")
        }
        attachment.close()
        return .noContent
    }

    /// The stream a request names and its form, after the same-origin check.
    private func sharedStreamRequest(_ request: Request) throws -> (SharedStream, FormParameters) {
        guard request.isSameOrigin else { throw HTTPError(.forbidden, message: "Cross-origin request refused.") }
        guard let id = request.parameters["stream"], let shared = streams.withLock({ $0[id] }) else {
            throw HTTPError(.notFound, message: "No such stream: it has closed. Open a new one at /streams.")
        }
        return (shared, try request.form())
    }

    private func checkToken(_ form: FormParameters, of session: ScreenSession) throws {
        guard SessionToken.equal(form[ScreenWire.Field.csrf.rawValue] ?? "", session.csrfToken) else {
            throw HTTPError(.forbidden, message: "This screen's token is not valid. Reload the page and try again.")
        }
    }

    private func attach(_ screenID: String, to shared: SharedStream) throws -> SharedStreamAttachment {
        do {
            return try shared.attach(screenID: screenID)
        } catch .full {
            throw Self.streamFull(shared)
        } catch {
            throw HTTPError(.notFound, message: "No such stream: it has closed. Open a new one at /streams.")
        }
    }

    private static let wireVersion = String(ScreenWire.version)

    private static func streamFull(_ shared: SharedStream) -> HTTPError {
        HTTPError(
            .tooManyRequests,
            message: "This stream carries \(shared.capacity) screens, its most. Close a tab or open another stream.")
    }

    /// Logs that a session's screen appeared (its page's first event stream connected). Here rather than in a
    /// closure each screen keeps: that was an allocation per session for one line.
    private func logAppearance(of session: ScreenSession) {
        logger.log(.info, "session.appeared", ["session": session.id])
    }
}
