internal import Foundation
internal import HTTPServer
internal import Reactive
internal import ViewKit

/// Action posts: a button's `rx.tap` fired on its screen's scheduler.
extension Application {
    enum ActionResult: Sendable {
        case unknown
        case done(navigation: String?)
    }

    func performAction(_ request: Request) throws -> Response {
        guard isSameOrigin(request) else { throw HTTPError(.forbidden, message: "Cross-origin action refused.") }
        let fromScript =
            request.headers["x-requested-with"] == "fetch"
            || request.headers["accept"]?.contains("text/event-stream") == true
        guard let id = request.parameters["sid"], let action = request.parameters["action"],
            let session = sessions.session(id: id)
        else {
            return .redirect(to: fallbackURL(for: request))
        }
        let token = try request.form()["csrf"] ?? ""
        guard SessionToken.equal(token, session.csrfToken) else {
            throw HTTPError(.forbidden, message: "This action's token is not valid. Reload the page and try again.")
        }
        let perform = { @Sendable (screen: Screen) -> ActionResult in
            screen.perform(action: action) ? .done(navigation: screen.navigationIntent()) : .unknown
        }
        let answer = { @Sendable [sessions] (result: ActionResult?) throws -> Response in
            switch result {
            case nil:
                return .redirect(to: session.url)
            case .unknown?:
                throw HTTPError(.notFound, message: "This screen has no action named “\(action)”.")
            case .done(let navigation)?:
                if navigation != nil || !fromScript { sessions.end(id: id, reason: .navigated) }
                guard fromScript else { return .redirect(to: navigation ?? session.url) }
                var response = Response.noContent
                if let navigation { response.headers["Screenplay-Navigate"] = navigation }
                return response
            }
        }
        // A screen with nothing queued runs the action on this thread at once (a hop to another thread and back adds
        // two thread wake-ups to the round trip). A busy one answers from its turn: an I/O thread that waited for a busy screen (a
        // change fanned out to thousands of screens queues a turn on each) held up every request of its
        // connections, and with a thread per core a few such waits held up the whole server.
        if session.scheduler.isIdle {
            return try answer(session.perform(perform))
        }
        return .deferred { pending in
            session.performLater(perform) { result in pending.respond { try answer(result) } }
        }
    }

    func isSameOrigin(_ request: Request) -> Bool {
        if let site = request.headers["sec-fetch-site"], site == "cross-site" || site == "same-site" { return false }
        guard let origin = request.headers["origin"] else { return true }
        guard let host = request.headers["host"] else { return false }
        return origin == "http://\(host)" || origin == "https://\(host)"
    }

    /// Where a post to an unknown session goes: the page it came from, when that is a screen of this site.
    func fallbackURL(for request: Request) -> String {
        if let referer = request.headers["referer"], let components = URLComponents(string: referer),
            components.host == nil || request.headers["host"]?.hasPrefix(components.host ?? "") == true
        {
            let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            let url = path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
            if self.route(forURL: url) != nil { return url }
        }
        return "/"
    }
}
