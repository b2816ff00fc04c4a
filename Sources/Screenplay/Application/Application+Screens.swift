internal import Foundation
internal import HTTPServer
internal import Reactive
internal import ViewKit

/// Opening a screen: a GET of a screen route builds its session and renders its page.
extension Application {
    /// The answer to `request` when `routeGuard` does not let it through, or nil when it does: a redirect (for a
    /// script, `204` with `Screenplay-Navigate`), or the refusal.
    func guardAnswer(_ routeGuard: Guard?, _ request: Request, fromScript: Bool) throws -> Response? {
        guard let routeGuard else { return nil }
        switch routeGuard.decision(for: request) {
        case .allow:
            return nil
        case .redirect(let location):
            guard fromScript else { return .redirect(to: location) }
            var response = Response.noContent
            response.headers[ScreenWire.Header.navigate.rawValue] = location
            return response
        case .refuse(let status, let message):
            throw HTTPError(status, message: message)
        }
    }

    /// The cookie that names a browser (``ScreenRequest/browserID``).
    static let browserCookie = "screenplay_browser"

    /// What a screen factory sees of `request`, at `url`: its headers, cookies, address and the browser's identity
    /// (a new one when the browser has none yet, or a malformed one).
    func screenRequest(
        for request: Request, url: String, path: String, parameters: [String: String], query: [String: String]
    ) -> (ScreenRequest, newBrowserID: String?) {
        let sent = request.cookies[Self.browserCookie]
        let isValid =
            sent.map { $0.utf8.count == 22 && $0.utf8.allSatisfy { SessionToken.isTokenByte($0) } } ?? false
        let browserID = isValid ? sent! : SessionToken.make()
        let isSecure = request.headers["x-forwarded-proto"]?.lowercased() == "https"
        let screenRequest = ScreenRequest(
            url: url, path: path, parameters: parameters, query: query, headers: request.headers,
            cookies: request.cookies, remoteAddress: request.remoteAddress, browserID: browserID, isSecure: isSecure)
        return (screenRequest, isValid ? nil : browserID)
    }

    /// The cookies a screen's first response sets: the browser's new identity, and the factory's.
    func setCookies(on response: inout Response, for request: ScreenRequest, newBrowserID: String?) {
        if let newBrowserID {
            var cookie = Cookie(name: Self.browserCookie, value: newBrowserID, maxAge: .seconds(365 * 24 * 3600))
            cookie.isSecure = request.isSecure
            response.setCookie(cookie)
        }
        for cookie in request.cookiesToSet { response.setCookie(cookie) }
    }

    func openScreen(route: ScreenRoute, request: Request) throws -> Response {
        if let refusal = try guardAnswer(route.routeGuard, request, fromScript: false) { return refusal }
        var query: [String: String] = [:]
        for pair in request.query { query[pair.name] = pair.value }
        let (screenRequest, newBrowserID) = self.screenRequest(
            for: request, url: request.target, path: request.path, parameters: request.parameters, query: query)
        let (session, html, status): (ScreenSession, [UInt8], HTTPStatus)
        do {
            (session, html, status) = try buildScreen(route: route, request: screenRequest)
        } catch let redirect as ScreenRedirect {
            var response = Response.redirect(to: redirect.location)
            response.headers["Cache-Control"] = "no-store"
            setCookies(on: &response, for: screenRequest, newBrowserID: newBrowserID)
            return response
        } catch let failure as ScreenBuildFailure {
            logger.log(
                .error, "screen.failed",
                [
                    "screen": failure.controllerName, "path": screenRequest.path, "step": failure.steps.last ?? "-",
                    "error": "\(failure.error)", "request_id": request.requestID,
                ])
            guard operations.isDevelopment else { throw failure }
            var response = Response.html(
                bytes: Array(DevelopmentErrorPage(failure: failure, url: screenRequest.url).html.utf8),
                status: .internalServerError)
            response.headers["Cache-Control"] = "no-store"
            return response
        }
        logger.log(
            .info, "session.opened",
            [
                "session": session.id, "path": screenRequest.path, "screen": route.controllerName,
                "status": "\(status.code)",
            ])
        var response = Response.html(bytes: html, status: status)
        response.headers["Cache-Control"] = "no-store"
        setCookies(on: &response, for: screenRequest, newBrowserID: newBrowserID)
        return response
    }

    /// Builds a screen for `request` on a new session and renders its page; the not-found screen when the factory
    /// throws ``ScreenNotFound``.
    func buildScreen(route: ScreenRoute, request: ScreenRequest) throws -> (ScreenSession, [UInt8], HTTPStatus) {
        do {
            let (session, html) = try makeSession(route: route, request: request)
            return (session, html, .ok)
        } catch let failure as ScreenBuildFailure {
            if let error = failure.error as? HTTPError { throw error }
            if let redirect = failure.error as? ScreenRedirect { throw redirect }
            guard let error = failure.error as? ScreenNotFound else { throw failure }
            guard let notFound = notFoundRoute.withLock({ $0 }) else {
                throw HTTPError(.notFound, message: error.description)
            }
            let (session, html) = try makeSession(route: notFound, request: request)
            return (session, html, .notFound)
        }
    }

    func makeSession(route: ScreenRoute, request: ScreenRequest) throws -> (ScreenSession, [UInt8]) {
        let id = newID()
        let session = ScreenSession(
            id: id, csrfToken: SessionToken.make(), url: request.url,
            scheduler: ScreenScheduler(label: "screen"), routeGuard: route.routeGuard)
        let html = try session.scheduler.sync { () throws -> [UInt8] in
            let screen = try makeScreen(route: route, request: request, session: session)
            session.install(screen)
            return screen.renderPage()
        }
        // A mistake of the screen's code while it was built (a binder gone, a list with duplicate identities) fails
        // this page load, as a factory that throws does, and the screen with it.
        if let mistake = session.takeFailure() {
            session.end()
            throw ScreenBuildFailure(
                error: mistake, controllerName: route.controllerName, templateName: route.templateName,
                steps: [
                    "route \(route.pattern) matched \(request.path)", "factory of \(route.controllerName)",
                    "viewDidLoad and the binder's bindings",
                ])
        }
        // Later mistakes (in a binder's callback, say) did nothing where they happened; they are logged, naming the
        // screen, and the screen goes on.
        session.scheduler.onProgrammerError { [logger, id, name = route.controllerName] mistake in
            logger.log(.error, "screen.programmer_error", ["session": id, "screen": name, "error": "\(mistake)"])
        }
        sessions.insert(session)
        return (session, html)
    }

    /// Builds `route`'s screen for `session` on its scheduler. A factory that throws is reported with the lifecycle
    /// steps reached (the route, then the factory); what follows it (loading the view, the binder's bindings) does
    /// not throw.
    func makeScreen(route: ScreenRoute, request: ScreenRequest, session: ScreenSession) throws -> Screen {
        let screen: Screen
        do {
            screen = try assembly.withLock { $0 }.makeScreen(
                request: request, backURL: route.parent, sessionID: session.id, csrfToken: session.csrfToken,
                signIn: signInState.withLock { $0 }, factory: route.factory)
        } catch {
            // Named for a failure only: a page that is served builds none of these strings.
            let steps = ["route \(route.pattern) matched \(request.path)", "factory of \(route.controllerName)"]
            throw ScreenBuildFailure(
                error: error, controllerName: route.controllerName, templateName: route.templateName, steps: steps)
        }
        screen.metrics = keepsMetrics ? metrics : nil
        screen.eventDelay = developmentLatency
        return screen
    }

    /// The route `url` matches and the request its factory gets; `request`, when given, is the HTTP request that asks
    /// for the screen again (an attach after a restart), whose headers and cookies the factory sees.
    func route(forURL url: String, request: Request? = nil) -> (ScreenRoute, ScreenRequest)? {
        guard url.hasPrefix("/"), !url.hasPrefix("//"), let components = URLComponents(string: url) else {
            return nil
        }
        let path = components.percentEncodedPath
        for route in routes.withLock({ $0 }) {
            if let parameters = route.match(path) {
                var query: [String: String] = [:]
                for item in components.queryItems ?? [] { query[item.name] = item.value ?? "" }
                guard let request else {
                    return (route, ScreenRequest(url: url, path: path, parameters: parameters, query: query))
                }
                let (screenRequest, _) = self.screenRequest(
                    for: request, url: url, path: path, parameters: parameters, query: query)
                return (route, screenRequest)
            }
        }
        return nil
    }
}
