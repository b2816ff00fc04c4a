internal import CMicroHTTPD

/// Ties one ``EventStream`` to the connection it is sent on, when libmicrohttpd sends it: only if the connection's
/// socket cannot be taken over (see ``AdoptedStreams``, which sends every other stream).
///
/// MHD pulls bytes through ``read``; with nothing to send, the connection is suspended (no
/// thread, no CPU) and a writer resumes it.
///
/// `@unchecked Sendable` because of the raw connection pointer: it is used only to suspend (on the
/// connection's own thread, from MHD's reader callback) and to resume (any thread, which MHD allows
/// with `MHD_ALLOW_SUSPEND_RESUME`). The stream's lock ensures a resume only follows a suspend,
/// and a suspended connection cannot be freed, so the pointer is valid whenever it is used.
final class StreamConnection: StreamWaker, @unchecked Sendable {
    private let connection: OpaquePointer
    private let stream: EventStream
    private let daemon: Daemon

    private init(connection: OpaquePointer, stream: EventStream, daemon: Daemon) {
        self.connection = connection
        self.stream = stream
        self.daemon = daemon
    }

    static func makeResponse(for stream: EventStream, on connection: OpaquePointer, daemon: Daemon) throws
        -> OpaquePointer
    {
        guard stream.attach(bufferLimit: daemon.configuration.maxStreamBuffer) else {
            throw StreamAlreadySent()
        }
        let attachment = StreamConnection(connection: connection, stream: stream, daemon: daemon)
        let context = Unmanaged.passRetained(attachment).toOpaque()
        let response: OpaquePointer
        do {
            // Event streams are idle by design; dead clients are found by heartbeats instead.
            try check(screenplay_mhd_set_connection_timeout(connection, 0), "setting the stream's timeout")
            response = try check(
                MHD_create_response_from_callback(
                    screenplay_mhd_size_unknown(), Self.responseBlockSize, StreamConnection.reader, context,
                    StreamConnection.released),
                "MHD_create_response_from_callback")
        } catch {
            Unmanaged<StreamConnection>.fromOpaque(context).release()
            stream.transportDidFinish()
            throw error
        }
        daemon.streams.add(stream, for: ObjectIdentifier(attachment))
        return response
    }

    /// The buffer MHD allocates with each callback response. A chunked response (every HTTP/1.1
    /// client) is read straight into the connection's own write buffer and never uses it, yet MHD
    /// allocates it for the life of the stream: 4 KiB there was a quarter of an idle stream's memory.
    /// Only an HTTP/1.0 client reads through it, in pieces of this size.
    static let responseBlockSize = 256

    func wake() {
        MHD_resume_connection(connection)
    }

    private static let reader: MHD_ContentReaderCallback = { context, _, buffer, capacity in
        let attachment = Unmanaged<StreamConnection>.fromOpaque(context!).takeUnretainedValue()
        let outcome = attachment.stream.read(
            into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity), parkingWith: attachment
        ) {
            MHD_suspend_connection(attachment.connection)
        }
        switch outcome {
        case .bytes(let count): return count
        case .parked: return 0
        case .ended: return screenplay_mhd_end_of_stream()
        // `needsRoom` answers only a read asked to take everything or nothing, which this one is not.
        case .aborted, .needsRoom: return screenplay_mhd_end_with_error()
        }
    }

    /// The response is destroyed: the client left, the stream ended, or the server stopped.
    private static let released: MHD_ContentReaderFreeCallback = { context in
        let attachment = Unmanaged<StreamConnection>.fromOpaque(context!).takeRetainedValue()
        attachment.daemon.streams.remove(ObjectIdentifier(attachment))
        attachment.stream.transportDidFinish()
    }
}

/// A handler returned an ``EventStream`` that another request is already sending.
struct StreamAlreadySent: Error, CustomStringConvertible {
    var description: String { "an EventStream goes to one client; this one is already being sent" }
}
