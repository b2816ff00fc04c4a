import Dispatch
import Primitives

/// A response a handler gives later, from any thread: see ``Response/deferred(_:)``.
///
/// The first ``respond(_:)`` answers the request; later calls are ignored and return `false`.
public final class PendingResponse: Sendable {
    private enum State {
        /// Not answered yet; `ready` is called once it is.
        case waiting(ready: (@Sendable () -> Void)?)
        case answered(Response)
        /// Answered and handed to the server.
        case taken
    }

    /// The request, for the log line and error page of an error thrown while answering (set by the router).
    struct Origin: Sendable {
        var summary: String
        var requestID: String
    }

    private let work: @Sendable (PendingResponse) -> Void
    private let state = LockedValue(State.waiting(ready: nil))
    private let origin = LockedValue<Origin?>(nil)

    init(_ work: @escaping @Sendable (PendingResponse) -> Void) {
        self.work = work
    }

    /// Answers the request with `response` (any kind, an event stream or another deferred response too). Call it
    /// once, from any thread; `false` if the request was answered already (by an earlier call, or by the server
    /// stopping).
    @discardableResult
    public func respond(_ response: Response) -> Bool {
        let ready: (@Sendable () -> Void)?? = state.withLock { state in
            guard case .waiting(let ready) = state else { return nil }
            state = .answered(response)
            return ready
        }
        guard let ready else { return false }
        ready?()
        return true
    }

    /// Answers the request with what `body` returns, or with the error it throws rendered as a handler's would be:
    /// an ``HTTPError`` as its status, anything else as a 500 whose page says nothing about it (the error goes to
    /// the log).
    @discardableResult
    public func respond(_ body: () throws -> Response) -> Bool {
        do {
            return respond(try body())
        } catch let error as HTTPError {
            return respond(error.response)
        } catch {
            let origin = self.origin.withLock { $0 }
            return respond(
                RouteTable.internalError(
                    error, summary: origin?.summary ?? "a deferred response", requestID: origin?.requestID ?? ""))
        }
    }

    /// Names the request this answers, for errors thrown while answering.
    func setOrigin(_ value: Origin) {
        origin.withLock { $0 = value }
    }

    /// Starts the handler's work; `ready` is called, on whichever thread answers, once the response is there (at
    /// once if the work answers before returning).
    func start(whenAnswered ready: @escaping @Sendable () -> Void) {
        let answered = state.withLock { state in
            guard case .waiting = state else { return true }
            state = .waiting(ready: ready)
            return false
        }
        if answered {
            ready()
        } else {
            work(self)
        }
    }

    /// The response, once answered (nil before); taken once.
    func take() -> Response? {
        state.withLock { state in
            guard case .answered(let response) = state else { return nil }
            state = .taken
            return response
        }
    }

    /// Waits for the response, running the work on this thread: ``Router/respond(to:)`` for tests.
    func wait() -> Response {
        let answered = DispatchSemaphore(value: 0)
        start { answered.signal() }
        answered.wait()
        return take() ?? .error(.internalServerError, message: "Something went wrong on our side.")
    }
}

extension Response {
    /// A response the handler gives later: the server calls `work` with the request's ``PendingResponse`` and
    /// answers once `work` (or whatever it hands the request to) calls ``PendingResponse/respond(_:)``, from any
    /// thread. Meanwhile the request holds no thread: the I/O thread goes on serving other connections.
    ///
    /// For a handler that waits on something else (a queue, a lock, another service): waiting in the handler holds
    /// the I/O thread, and with a thread per core a few such waits hold up every request.
    ///
    /// ```swift
    /// router.post("/reports") { request in
    ///     .deferred { pending in
    ///         reportQueue.async { pending.respond { try .json(makeReport(request)) } }
    ///     }
    /// }
    /// ```
    ///
    /// Respond exactly once: a request never answered stays open until the server stops, which answers it `503`.
    /// This response's own status and headers are not sent.
    public static func deferred(_ work: @escaping @Sendable (PendingResponse) -> Void) -> Response {
        var response = Response(status: .ok)
        response.pending = PendingResponse(work)
        return response
    }
}
