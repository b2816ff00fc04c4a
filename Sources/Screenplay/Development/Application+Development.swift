internal import Foundation
internal import HTTPServer
internal import Synchronization
internal import ViewKit

/// What development mode keeps: the file watcher, and the template error open pages show until it is fixed.
struct DevelopmentState: ~Copyable {
    var watcher: FileWatcher?
    /// The `dev-error` payload of the templates on disk, nil while they are good.
    var error: String?
}

/// Development mode: templates and stylesheets reload into open pages.
///
/// A saved template re-parses the whole library, checked as at start-up (layout outlets, every screen's outlets).
/// A library with an error is not used: open pages get a `dev-error` event (an overlay with file, line and
/// message) and keep working with the good templates; the next good save sends `dev-ok` and the overlay goes.
/// A good library replaces the old one and every open screen is rebuilt from its route's factory and URL on its
/// session (same id and token, so forms keep working), and its pages get a `reset`. State that lives in the driver's
/// source (the store) is kept; state only in views (a half-typed field) is not, which is what a fresh page load
/// would do too.
extension Application {
    func startWatching() {
        let watcher = FileWatcher(directories: [root + "/Templates", root + "/Public"]) { [weak self] paths in
            self?.filesChanged(paths)
        }
        development.withLock { $0.watcher = watcher }
        watcher.start(interval: operations.watchInterval)
    }

    func stopWatching() {
        let watcher = development.withLock { state in
            defer { state.watcher = nil }
            return state.watcher
        }
        watcher?.stop()
    }

    func filesChanged(_ paths: [String]) {
        let templatesFolder = root + "/Templates/"
        let publicFolder = root + "/Public/"
        logger.log(.debug, "files.changed", ["paths": paths.joined(separator: ",")])
        if paths.contains(where: { $0.hasPrefix(templatesFolder) }) { reloadTemplates() }
        for path in paths where path.hasPrefix(publicFolder) && path.hasSuffix(".css") {
            broadcast(.developmentStylesheet, data: "/public/" + path.dropFirst(publicFolder.count))
        }
    }

    /// Re-parses the templates; applies them to every open screen, or reports why they cannot be used.
    package func reloadTemplates() {
        do {
            let reloaded = try ScreenAssembly(
                templatesIn: root + "/Templates", registry: viewRegistry, clientHead: clientAssets.headMarkup,
                clientVersion: clientAssets.version, eventBuffer: sessionConfiguration.eventBuffer)
            for route in routes.withLock({ $0 }) { try route.validate(reloaded.templates) }
            if let notFound = notFoundRoute.withLock({ $0 }) { try notFound.validate(reloaded.templates) }
            assembly.withLock { $0 = reloaded }
        } catch {
            let payload = Self.developmentErrorPayload(error)
            development.withLock { $0.error = payload }
            logger.log(.warning, "templates.rejected", ["error": "\(error)"])
            broadcast(.developmentError, data: payload)
            return
        }
        let hadError = development.withLock { state in
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
        let notFound = notFoundRoute.withLock { $0 }
        guard
            let (route, request) = route(forURL: session.url) ?? notFound.map({ ($0, Self.request(for: session.url)) })
        else { return }
        do {
            do {
                try session.replaceScreen { try makeScreen(route: route, request: request, session: session) }
            } catch let failure as ScreenBuildFailure where failure.error is ScreenNotFound {
                guard let notFound else { throw failure }
                try session.replaceScreen { try makeScreen(route: notFound, request: request, session: session) }
            }
        } catch {
            logger.log(
                .error, "screen.failed",
                ["session": session.id, "path": Self.path(of: session.url), "error": "\(error)"])
            let payload = Self.developmentErrorPayload(error)
            _ = session.perform { $0.sendDevelopmentEvent(ScreenWire.Event.developmentError.rawValue, data: payload) }
        }
    }

    private static func request(for url: String) -> ScreenRequest {
        let path = String(url.split(separator: "?", maxSplits: 1).first ?? "/")
        return ScreenRequest(url: url, path: path, parameters: [:], query: [:])
    }

    /// Sends a development event to every open page.
    func broadcast(_ event: ScreenWire.Event, data: String) {
        for session in sessions.all {
            _ = session.perform { $0.sendDevelopmentEvent(event.rawValue, data: data) }
        }
    }

    /// Shows the current template error to a page that just connected.
    func sendPendingDevelopmentError(to stream: any ScreenEventTarget) {
        guard operations.isDevelopment, let payload = development.withLock({ $0.error }) else { return }
        stream.sendUnnumbered(event: ScreenWire.Event.developmentError.rawValue, data: payload)
    }

    /// `{"file":"MovieDetail.html","line":12,"message":"…"}`; file and line are empty and 0 when the error does not
    /// come from a template.
    static func developmentErrorPayload(_ error: any Error) -> String {
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
