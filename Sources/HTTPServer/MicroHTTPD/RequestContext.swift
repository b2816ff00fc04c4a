import Dispatch

/// What the server keeps about one request between libmicrohttpd's calls: created with the request
/// line, handed around as `*con_cls`, released when libmicrohttpd reports the request completed.
/// Only the connection's I/O thread touches it.
final class RequestContext {
    let rawTarget: String
    /// Where the target starts in libmicrohttpd's read buffer, to measure it against the version that follows.
    let rawTargetAddress: UInt
    let startNanoseconds: UInt64
    let requestID = RequestID.next()
    var hasSeenHeaders = false
    /// Whether the request line said HTTP/1.0 (no chunked encoding for its response).
    var isHTTP10 = false
    var isBodyTooLarge = false
    /// Bytes of an oversized body read and dropped so far.
    var discardedCount = 0
    var body: [UInt8] = []
    /// The receiver a body route streams this request's body into (see ``Router/receive(_:_:_:)``), until it has
    /// finished or been abandoned; its route, and whether it refused the rest of the body.
    var receiver: (any RequestBodyReceiver)?
    var receiverRoute: String?
    var receiverRefused = false
    /// How much of a body route's body is still to come, when its `Content-Length` says (not chunked).
    var bodyRemaining: Int?
    /// The deferred response the connection is suspended for (see ``Response/deferred(_:)``), and its route.
    var pending: PendingResponse?
    var pendingRoute: String?

    init(rawTarget: String, address: UInt = 0) {
        self.rawTarget = rawTarget
        self.rawTargetAddress = address
        self.startNanoseconds = DispatchTime.now().uptimeNanoseconds
    }
}
