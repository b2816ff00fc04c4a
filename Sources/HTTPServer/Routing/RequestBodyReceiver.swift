/// Takes a request body piece by piece as it arrives, for a route added with ``Router/receive(_:_:_:)``: the body
/// is never held whole in memory.
///
/// Contract: the server calls the receiver one call at a time, on the I/O thread of its connection (or, for a receiver
/// that ``takesLargePieces``, from the second piece on possibly on a thread that reads that body alone): ``receive(_:)``
/// for each piece, in order, then exactly one of ``finish()`` (the body ended) or ``abandon()`` (the connection
/// ended first, or the receiver refused a piece). A receiver is never shared between requests.
public protocol RequestBodyReceiver: AnyObject {
    /// Whether the server may read the rest of a large body (at least 64 KiB still to come, `Content-Length` known)
    /// on a thread of its own, in pieces of up to 256 KiB, instead of libmicrohttpd's pieces of a few KiB: for a
    /// receiver that takes its pieces on any thread, one at a time, and answers ``finish()`` with a response whose
    /// body is bytes. `false` unless the receiver says so.
    var takesLargePieces: Bool { get }
    /// Takes the next piece of the body; the bytes are valid for the call only. Return `false` to refuse the rest:
    /// the server then reads and drops what follows, up to a small allowance, answers ``finish()``'s response if the
    /// body ends within it, and otherwise closes the connection.
    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// The body has ended (or the receiver refused it and the rest was dropped): the answer.
    func finish() -> Response
    /// The connection ended before the body did; keep or drop what was received, as the route's contract says.
    func abandon()
}

extension RequestBodyReceiver {
    public var takesLargePieces: Bool { false }
}

/// What a body route's handler decides once it has seen the headers: answer now, without reading the body (a
/// refusal), or read the body into a receiver.
public enum BodyReception {
    /// Answer at once; the body is not read (the connection closes after the answer if the client sent one).
    case respond(Response)
    /// Hand the body to this receiver as it arrives.
    case receive(any RequestBodyReceiver)
    /// Read the body as an ordinary route's (``ServerConfiguration/maxBodySize`` applies) and answer with the ordinary
    /// route added, before this body route, for the same method and pattern: a body route that streams only some
    /// bodies (a form's `multipart/form-data` posts) and leaves the others to the route it stands in front of.
    case ordinary
}

/// A handler for a route whose body streams: it sees the request with its headers (and an empty ``Request/body``)
/// before any byte of the body is read. Throw ``HTTPError`` for a refusal.
public typealias BodyHandler = @Sendable (Request) throws -> BodyReception
