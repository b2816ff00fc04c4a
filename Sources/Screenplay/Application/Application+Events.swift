internal import Foundation
internal import HTTPServer
internal import Reactive
internal import ViewKit

/// A version 1 page's own event stream (`GET /screens/{sid}/events`).
extension Application {
    func openEvents(_ request: Request) throws -> Response {
        let lastEventID = (request.headers["last-event-id"] ?? request.query["lastEventId"]).flatMap { Int($0) }
        let stream = EventStream()
        if keepsMetrics {
            metrics.streamOpened()
            stream.onClose { [metrics] in metrics.streamClosed() }
        }
        if let id = request.parameters["sid"], let session = sessions.session(id: id) {
            session.streamConnected(stream)
            // Not waiting for the screen's scheduler (see `attachLater`): the stream keeps what is sent before the
            // response takes it over.
            session.attachLater(stream, lastEventID: lastEventID) { [self] appeared in
                if appeared { logAppearance(of: session) }
                sendPendingDevelopmentError(to: stream)
            }
            return .eventStream(stream)
        }
        // Unknown session (expired, or the server restarted): rebuild the screen from its URL and reset the page.
        guard let url = request.query["url"], let (route, screenRequest) = route(forURL: url, request: request) else {
            throw HTTPError(.notFound, message: "No such screen.")
        }
        if route.routeGuard.map({ $0.decision(for: request) != .allow }) ?? false {
            throw HTTPError(.forbidden, message: "This screen's guard does not let it in. Reload the page.")
        }
        let session: ScreenSession
        do {
            (session, _, _) = try buildScreen(route: route, request: screenRequest)
        } catch {
            stream.close()
            throw error
        }
        session.streamConnected(stream)
        if session.perform({ $0.attachWithReset(stream) }) == true { logAppearance(of: session) }
        sendPendingDevelopmentError(to: stream)
        return .eventStream(stream)
    }

    /// Logs that a session's screen appeared (its page's first event stream connected). Here rather than in a
    /// closure each screen keeps: that was an allocation per session for one line.
    func logAppearance(of session: ScreenSession) {
        logger.log(.info, "session.appeared", ["session": session.id])
    }
}
