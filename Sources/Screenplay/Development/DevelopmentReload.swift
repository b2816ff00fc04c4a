internal import FoundationEssentials
internal import HTTPServer
import Primitives
internal import Synchronization
internal import ViewKit

/// What development mode keeps: the file watcher, and the template error open pages show until it is fixed.
private struct DevelopmentState: ~Copyable {
    var watcher: FileWatcher?
    /// The `dev-error` payload of the templates on disk, nil while they are good.
    var error: String?
}

/// Development reload: templates and stylesheets reload into open pages.
///
/// A saved template re-parses the whole library, checked as at start-up (layout outlets, every screen's outlets).
/// A library with an error is not used: open pages get a `dev-error` event (an overlay with file, line and
/// message) and keep working with the good templates; the next good save sends `dev-ok` and the overlay goes.
/// A good library replaces the old one and every open screen is rebuilt from its route's factory and URL on its
/// session (same id and token, so forms keep working), and its pages get a `reset`. State that lives in the driver's
/// source (the store) is kept; state only in views (a half-typed field) is not, which is what a fresh page load
/// would do too.
///
/// Contract: it watches only between ``start()`` and ``stop()``; a rejected library never replaces the screen
/// router's assembly. Thread-safe.
final class DevelopmentReload: Sendable {
    private let root: String
    private let watchInterval: Duration
    /// Whether a page that connects is told of the current template error.
    private let isDevelopment: Bool
    /// What a reloaded ``ScreenAssembly`` is made with, besides the templates.
    private let viewRegistry: ViewRegistry
    private let clientAssets: ClientAssets
    private let eventBuffer: Int
    private let router: ScreenRouter
    private let sessions: SessionRegistry
    private let logger: Logger
    private let state = Locked(DevelopmentState())

    init(
        root: String, operations: OperationsConfiguration, viewRegistry: ViewRegistry, clientAssets: ClientAssets,
        eventBuffer: Int, router: ScreenRouter, sessions: SessionRegistry, logger: Logger
    ) {
        self.root = root
        watchInterval = operations.watchInterval
        isDevelopment = operations.isDevelopment
        self.viewRegistry = viewRegistry
        self.clientAssets = clientAssets
        self.eventBuffer = eventBuffer
        self.router = router
        self.sessions = sessions
        self.logger = logger
    }

    /// Parses the templates under `<root>/Templates` again; throws a ``TemplateError`` naming the file and line of a
    /// broken template.
    private func makeAssembly() throws -> ScreenAssembly {
        try ScreenAssembly(
            templatesIn: root + "/Templates", registry: viewRegistry, clientHead: clientAssets.headMarkup,
            clientVersion: clientAssets.version, eventBuffer: eventBuffer)
    }

    /// Watches `Templates` and `Public` under the root until ``stop()``.
    func start() {
        let watcher = FileWatcher(directories: [root + "/Templates", root + "/Public"]) { [weak self] paths in
            self?.filesChanged(paths)
        }
        state.withLock { $0.watcher = watcher }
        watcher.start(interval: watchInterval)
    }

    /// Stops watching.
    func stop() {
        let watcher = state.withLock { state in
            defer { state.watcher = nil }
            return state.watcher
        }
        watcher?.stop()
    }

    private func filesChanged(_ paths: [String]) {
        let templatesFolder = root + "/Templates/"
        let publicFolder = root + "/Public/"
        logger.log(.debug, "files.changed", ["paths": paths.joined(separator: ",")])
        if paths.contains(where: { $0.hasPrefix(templatesFolder) }) { reloadTemplates() }
        for path in paths where path.hasPrefix(publicFolder) && path.hasSuffix(".css") {
            broadcast(.developmentStylesheet, data: "/public/" + path.dropFirst(publicFolder.count))
        }
    }

    /// Re-parses the templates; applies them to every open screen, or reports why they cannot be used.
    func reloadTemplates() {
        do {
            try router.install(try makeAssembly())
        } catch {
            let payload = Self.developmentErrorPayload(error)
            state.withLock { $0.error = payload }
            logger.log(.warning, "templates.rejected", ["error": "\(error)"])
            broadcast(.developmentError, data: payload)
            return
        }
        let hadError = state.withLock { state in
            defer { state.error = nil }
            return state.error != nil
        }
        if hadError { broadcast(.developmentOK, data: "{}") }
        let open = sessions.all
        logger.log(.info, "templates.reloaded", ["screens": String(open.count)])
        for session in open { rebuild(session) }
    }

    /// Rebuilds a session's screen with the current templates and resets its pages.
    private func rebuild(_ session: ScreenSession) {
        let notFound = router.notFound
        guard
            let (route, request) = router.route(forURL: session.url)
                ?? notFound.map({ ($0, Self.request(for: session.url)) })
        else { return }
        do {
            do {
                try session.replaceScreen { try router.makeScreen(route: route, request: request, session: session) }
            } catch let failure as ScreenBuildFailure where failure.error is ScreenNotFound {
                guard let notFound else { throw failure }
                try session.replaceScreen { try router.makeScreen(route: notFound, request: request, session: session) }
            }
        } catch {
            logger.log(
                .error, "screen.failed",
                ["session": session.id, "path": ScreenRequest.path(of: session.url), "error": "\(error)"])
            let payload = Self.developmentErrorPayload(error)
            _ = session.perform { $0.sendDevelopmentEvent(ScreenWire.Event.developmentError.rawValue, data: payload) }
        }
    }

    private static func request(for url: String) -> ScreenRequest {
        let path = String(url.split(separator: "?", maxSplits: 1).first ?? "/")
        return ScreenRequest(url: url, path: path, parameters: [:], query: [:])
    }

    /// Sends a development event to every open page.
    private func broadcast(_ event: ScreenWire.Event, data: String) {
        for session in sessions.all {
            _ = session.perform { $0.sendDevelopmentEvent(event.rawValue, data: data) }
        }
    }

    /// Shows the current template error to a page that just connected.
    func sendPendingDevelopmentError(to stream: any ScreenEventTarget) {
        guard isDevelopment, let payload = state.withLock({ $0.error }) else { return }
        stream.sendUnnumbered(event: ScreenWire.Event.developmentError.rawValue, data: payload)
    }

    /// `{"file":"MovieDetail.html","line":12,"message":"…"}`; file and line are empty and 0 when the error does not
    /// come from a template.
    private static func developmentErrorPayload(_ error: any Error) -> String {
        var file = ""
        var line = 0
        var message = "\(error)"
        if let error = error as? TemplateError {
            file = "Templates/" + error.file
            line = error.line
            message = error.message
        } else if let failure = error as? ScreenBuildFailure {
            file = "Templates/" + failure.templateName + ".html"
            message = failure.description
        }
        return "{\"file\":\(Logger.jsonString(file)),\"line\":\(line),\"message\":\(Logger.jsonString(message))}"
    }
}
