internal import CMicroHTTPD

/// A response body written as it is produced, never whole in memory: the server asks for the next piece each time
/// the connection can take more (chunked transfer encoding; libmicrohttpd's content-reader callback).
///
/// `next` is called on the connection's thread, one call at a time, until it answers `nil` (the end). A piece may be
/// any size; an empty one is skipped. A thrown error ends the response early (the connection is closed, so the client
/// sees a truncated body rather than a complete one). A client that leaves stops the calls.
///
/// ```swift
/// let pages = Locked(0)
/// return Response(headers: ["Content-Type": "text/csv"], body: .produced(BodyProducer {
///     let page = pages.withLock { page in defer { page += 1 }; return page }
///     let rows = try store.movies(matching: .all, from: page * 500, count: 500)
///     return rows.isEmpty ? nil : csv(rows)
/// }))
/// ```
public final class BodyProducer: Sendable {
    private let produce: @Sendable () throws -> [UInt8]?

    /// A body whose pieces `next` produces, `nil` marking the end.
    public init(_ next: @escaping @Sendable () throws -> [UInt8]?) {
        produce = next
    }

    /// The next non-empty piece, or `nil` at the end.
    func next() throws -> [UInt8]? {
        while let piece = try produce() {
            if !piece.isEmpty { return piece }
        }
        return nil
    }
}

/// A ``BodyProducer`` as libmicrohttpd reads it: the piece being copied out and where the copy is.
///
/// `@unchecked Sendable`: MHD calls the reader of one response on one connection's thread, one call at a time, and
/// frees it after the last; nothing else touches it.
final class ProducedBody: @unchecked Sendable {
    private let producer: BodyProducer
    private var piece: [UInt8] = []
    private var offset = 0

    private init(_ producer: BodyProducer) {
        self.producer = producer
    }

    /// The buffer MHD reads an HTTP/1.0 client's body through (a chunked one is written straight to the connection's
    /// buffer, in pieces of up to its free space).
    private static let blockSize = 16 * 1024

    static func makeResponse(for producer: BodyProducer) throws -> OpaquePointer {
        let context = Unmanaged.passRetained(ProducedBody(producer)).toOpaque()
        do {
            return try check(
                MHD_create_response_from_callback(
                    screenplay_mhd_size_unknown(), blockSize, ProducedBody.reader, context, ProducedBody.released),
                "MHD_create_response_from_callback")
        } catch {
            Unmanaged<ProducedBody>.fromOpaque(context).release()
            throw error
        }
    }

    /// Copies what is left of the current piece, producing the next one first when it is used up.
    private func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        if offset == piece.count {
            do {
                guard let next = try producer.next() else { return screenplay_mhd_end_of_stream() }
                piece = next
                offset = 0
            } catch {
                ServerLog.error("a produced body failed after \(offset) bytes of its piece: \(error)")
                return screenplay_mhd_end_with_error()
            }
        }
        let count = min(buffer.count, piece.count - offset)
        piece.withUnsafeBytes { bytes in
            buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }

    private static let reader: MHD_ContentReaderCallback = { context, _, buffer, capacity in
        let body = Unmanaged<ProducedBody>.fromOpaque(context!).takeUnretainedValue()
        return body.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity))
    }

    private static let released: MHD_ContentReaderFreeCallback = { context in
        Unmanaged<ProducedBody>.fromOpaque(context!).release()
    }
}
