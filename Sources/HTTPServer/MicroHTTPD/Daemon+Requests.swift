internal import CMicroHTTPD
import Dispatch
import Glibc

extension Daemon {
    /// `MHD_OPTION_URI_LOG_CALLBACK`: the request line is in; the raw target (still encoded, with
    /// its query) is only available here, before MHD decodes it in place.
    static let requestBegan:
        @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
            context, uri, _ in
            let daemon = Unmanaged<Daemon>.fromOpaque(context!).takeUnretainedValue()
            // Sequentially consistent with the stop's flag and count (see `suspend`).
            daemon.requestsInFlight.add(1, ordering: .sequentiallyConsistent)
            let request = RequestContext(
                rawTarget: uri.map { String(cString: $0) } ?? "/", address: UInt(bitPattern: uri))
            return Unmanaged.passRetained(request).toOpaque()
        }

    /// `MHD_OPTION_NOTIFY_COMPLETED`: the request is done (answered, failed or abandoned).
    static let requestCompleted:
        @convention(c) (
            UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
            MHD_RequestTerminationCode
        ) -> Void = { context, _, requestPointer, _ in
            let daemon = Unmanaged<Daemon>.fromOpaque(context!).takeUnretainedValue()
            if let requestPointer, let request = requestPointer.pointee {
                let context = Unmanaged<RequestContext>.fromOpaque(request)
                // A body route's receiver whose body never ended: the client went away mid-body.
                if let receiver = context.takeUnretainedValue().receiver {
                    context.takeUnretainedValue().receiver = nil
                    receiver.abandon()
                }
                context.release()
                requestPointer.pointee = nil
            }
            daemon.requestsInFlight.subtract(1, ordering: .releasing)
        }

    /// The accept policy, asked for each connection just accepted: once ``stop()`` has begun, MHD
    /// closes the connection at once. The listening socket stays open until `MHD_stop_daemon`, so a
    /// client that connects meanwhile is hung up on instead of waiting in the backlog for a reset.
    static let acceptPolicy: MHD_AcceptPolicyCallback = { context, _, _ in
        let daemon = Unmanaged<Daemon>.fromOpaque(context!).takeUnretainedValue()
        return daemon.isAcceptingConnections.load(ordering: .relaxed) ? .YES : .NO
    }

    /// The access handler. MHD calls it once with the headers, then with each piece of body, then
    /// with no data: answering on that last call (never the first) keeps the connection alive.
    static let accessHandler: MHD_AccessHandlerCallback = {
        context, connection, _, method, version, uploadData, uploadDataSize, requestPointer in
        let daemon = Unmanaged<Daemon>.fromOpaque(context!).takeUnretainedValue()
        guard let connection, let requestPointer, let pointer = requestPointer.pointee, let uploadDataSize else {
            return .NO
        }
        let request = Unmanaged<RequestContext>.fromOpaque(pointer).takeUnretainedValue()
        if !request.hasSeenHeaders, let version { request.isHTTP10 = strcmp(version, "HTTP/1.0") == 0 }
        if !request.hasSeenHeaders, Daemon.targetHasNUL(request, version: version) {
            request.hasSeenHeaders = true
            return daemon.queue(
                .error(.badRequest, message: "The request target contains a NUL byte."),
                method: method.map { String(cString: $0) } ?? "GET", context: request, on: connection)
        }
        return daemon.handle(
            connection, request, method: method.map { String(cString: $0) } ?? "GET", uploadData: uploadData,
            uploadDataSize: uploadDataSize)
    }

    private func handle(
        _ connection: OpaquePointer, _ context: RequestContext, method: String, uploadData: UnsafePointer<CChar>?,
        uploadDataSize: UnsafeMutablePointer<Int>
    ) -> MHD_Result {
        if let pending = context.pending {
            // Resumed: the deferred response is there (the connection is resumed only then).
            guard var response = pending.take() else { return .YES }
            context.pending = nil
            response.routePattern = response.routePattern ?? context.pendingRoute
            return queue(response, method: method, context: context, on: connection)
        }
        if !context.hasSeenHeaders {
            context.hasSeenHeaders = true
            let contentLength = Daemon.header("Content-Length", of: connection)
            if contentLength != nil && Daemon.header("Transfer-Encoding", of: connection) != nil {
                // RFC 9112 §6.1: a request smuggling vector; 0.9.75 would accept it.
                return queue(
                    .error(.badRequest, message: "Both Transfer-Encoding and Content-Length were sent."),
                    method: method, context: context, on: connection)
            }
            if contentLength != nil, Daemon.headers(of: connection).values(for: "Content-Length").count > 1 {
                // RFC 9112 §6.3: MHD reads the first of several lengths; a proxy in front may read the last.
                return queue(
                    .error(.badRequest, message: "More than one Content-Length was sent."),
                    method: method, context: context, on: connection)
            }
            if routes.hasBodyRoutes(for: method), let answer = startBodyRoute(connection, context, method: method) {
                return answer
            }
            if let contentLength, let length = Int(contentLength), length > configuration.maxBodySize {
                return queue(
                    .error(.contentTooLarge, message: "The body is larger than \(configuration.maxBodySize) bytes."),
                    method: method, context: context, on: connection)
            }
            return .YES
        }
        if let receiver = context.receiver {
            return receiveBody(
                receiver, connection, context, method: method, uploadData: uploadData, uploadDataSize: uploadDataSize)
        }
        if uploadDataSize.pointee > 0 {
            let count = uploadDataSize.pointee
            if context.isBodyTooLarge || context.body.count + count > configuration.maxBodySize {
                context.isBodyTooLarge = true
                context.body = []
                context.discardedCount += count
                // MHD cannot answer before the body ends; a sender that keeps going loses the connection.
                if context.discardedCount > configuration.maxBodySize + Daemon.discardAllowance { return .NO }
            } else if let uploadData {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: count) {
                    context.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
                }
            }
            uploadDataSize.pointee = 0
            return .YES
        }
        if context.isBodyTooLarge {
            return queue(
                .error(.contentTooLarge, message: "The body is larger than \(configuration.maxBodySize) bytes."),
                method: method, context: context, on: connection)
        }
        var request = Request(
            method: HTTPMethod(rawValue: method), target: context.rawTarget,
            headers: Daemon.headers(of: connection), body: context.body)
        request.peer = PeerAddress(screenplay_mhd_client_address(connection))
        request.requestID = context.requestID
        context.body = []
        return queue(routes.respond(to: request), method: method, context: context, on: connection)
    }

    /// Asks the body route for this request, if one answers it, what to do with the body: `nil` when no body route
    /// answers (the request goes the ordinary way), else MHD's result for the headers' call (an answer queued now, or
    /// the receiver kept for the body).
    private func startBodyRoute(_ connection: OpaquePointer, _ context: RequestContext, method: String) -> MHD_Result? {
        let rawPath = context.rawTarget.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first
        guard let (handler, parameters, route) = routes.bodyRoute(method: method, rawPath: String(rawPath ?? "")) else {
            return nil
        }
        var request = Request(
            method: HTTPMethod(rawValue: method), target: context.rawTarget, headers: Daemon.headers(of: connection))
        request.peer = PeerAddress(screenplay_mhd_client_address(connection))
        request.requestID = context.requestID
        request.parameters = parameters
        switch RouteTable.reception(of: handler, for: request, route: route) {
        case .ordinary:
            return nil
        case .respond(var response):
            response.routePattern = route
            return queue(response, method: method, context: context, on: connection)
        case .receive(let receiver):
            context.receiver = receiver
            context.receiverRoute = route
            if !request.headers.contains("Transfer-Encoding"),
                let length = request.headers["Content-Length"].flatMap({ Int($0) }), length >= 0
            {
                context.bodyRemaining = length
            }
            return .YES
        }
    }

    /// A body route's piece of body (handed to its receiver, or dropped once it refused) or its end (the receiver's
    /// answer).
    private func receiveBody(
        _ receiver: any RequestBodyReceiver, _ connection: OpaquePointer, _ context: RequestContext, method: String,
        uploadData: UnsafePointer<CChar>?, uploadDataSize: UnsafeMutablePointer<Int>
    ) -> MHD_Result {
        let count = uploadDataSize.pointee
        guard count > 0 else {
            context.receiver = nil
            var response = receiver.finish()
            response.routePattern = context.receiverRoute
            return queue(response, method: method, context: context, on: connection)
        }
        uploadDataSize.pointee = 0
        context.bodyRemaining = context.bodyRemaining.map { $0 - count }
        if !context.receiverRefused, let uploadData {
            if !receiver.receive(UnsafeRawBufferPointer(start: uploadData, count: count)) {
                context.receiverRefused = true
            } else if takeOver(receiver, connection, context, method: method) {
                // The rest of the body is read on the socket's duplicate (see `BodyReaders`); libmicrohttpd lets go.
                return .NO
            }
            return .YES
        }
        context.discardedCount += count
        // MHD cannot answer before the body ends; a sender that keeps going loses the connection.
        if context.discardedCount > Daemon.discardAllowance {
            context.receiver = nil
            receiver.abandon()
            return .NO
        }
        return .YES
    }

    /// Whether the request target held a NUL byte, which libmicrohttpd passes on as the end of the string: a request
    /// for `/public/index.html<NUL>.css` would otherwise be served `/public/index.html`. The target ends one byte
    /// before the version in the request line's buffer, so a target shorter than that gap was cut by a NUL.
    static func targetHasNUL(_ context: RequestContext, version: UnsafePointer<CChar>?) -> Bool {
        guard let version, version.pointee != 0, context.rawTargetAddress != 0 else { return false }
        let versionAddress = UInt(bitPattern: version)
        guard versionAddress > context.rawTargetAddress else { return false }
        let gap = Int(versionAddress - context.rawTargetAddress) - 1
        // A version far away is not in the same line: trust nothing then.
        return gap > context.rawTarget.utf8.count && gap < 1 << 16
    }

    /// How much of an oversized chunked body is read and dropped so the client can get its 413.
    static let discardAllowance = 1 << 20

    // MARK: - Responses

    private func queue(
        _ response: Response, method: String, context: RequestContext, on connection: OpaquePointer
    ) -> MHD_Result {
        if let pending = response.pending {
            return suspend(
                connection, until: pending, route: response.routePattern, method: method, context: context)
        }
        var response = response
        if method == "HEAD", case .stream(let stream) = response.body {
            stream.close()
            response.body = .bytes([])
        }
        if case .stream(let stream) = response.body {
            if adoptedStreams.count >= adoptedStreams.limit {
                stream.close()
                response = .error(.serviceUnavailable, message: "Too many event streams are open; try again later.")
            } else {
                do {
                    if try adopt(stream, response: response, context: context, on: connection) {
                        record(response, method: method, context: context, bodySize: nil)
                        // MHD closes its descriptor and frees the connection; the stream keeps the socket.
                        return .NO
                    }
                } catch {
                    ServerLog.error("\(method) \(context.rawTarget): \(error)")
                    response = .error(.internalServerError, message: "Something went wrong on our side.")
                }
            }
        }
        let bodySize: Int?
        let mhdResponse: OpaquePointer
        do {
            (mhdResponse, bodySize) = try makeResponse(response, on: connection)
        } catch {
            ServerLog.error("\(method) \(context.rawTarget): \(error)")
            response = .error(.internalServerError, message: "Something went wrong on our side.")
            guard let fallback = try? makeResponse(response, on: connection) else { return .NO }
            (mhdResponse, bodySize) = fallback
        }
        defer { MHD_destroy_response(mhdResponse) }
        let result = MHD_queue_response(connection, UInt32(response.status.code), mhdResponse)
        record(response, method: method, context: context, bodySize: bodySize)
        return result
    }

    /// Suspends the connection until `pending` is answered, from whichever thread answers it: the I/O thread goes back
    /// to its other connections meanwhile. MHD calls the access handler again once the connection is resumed, which
    /// then queues the answer.
    private func suspend(
        _ connection: OpaquePointer, until pending: PendingResponse, route: String?, method: String,
        context: RequestContext
    ) -> MHD_Result {
        let key = ObjectIdentifier(pending)
        pendingResponses.withLock { $0[key] = pending }
        // libmicrohttpd aborts when stopped with a suspended connection. Once the stop has begun, nothing is
        // suspended: the stop answers what is registered by then, and waits for requests in flight (this one
        // counted since its request line) before it stops libmicrohttpd, so a request that saw the server still
        // running is answered before the daemon stops.
        if !isAcceptingConnections.load(ordering: .sequentiallyConsistent) {
            pending.respond(.error(.serviceUnavailable, message: Daemon.stoppingMessage))
            pendingResponses.withLock { _ = $0.removeValue(forKey: key) }
            var response = pending.take() ?? .error(.serviceUnavailable, message: Daemon.stoppingMessage)
            response.routePattern = route
            return queue(response, method: method, context: context, on: connection)
        }
        context.pending = pending
        context.pendingRoute = route
        // Suspended first, so that an answer given at once (on this thread or another) resumes a suspended
        // connection; MHD takes a resume from any thread and acts on it once this handler has returned.
        MHD_suspend_connection(connection)
        let suspended = SuspendedConnection(pointer: connection)
        pending.start { [self] in
            pendingResponses.withLock { _ = $0.removeValue(forKey: key) }
            MHD_resume_connection(suspended.pointer)
        }
        return .YES
    }

    /// Writes the access log line and tells the request observer, when either is on.
    func record(_ response: Response, method: String, context: RequestContext, bodySize: Int?) {
        if configuration.accessLog || configuration.requestObserver != nil {
            let nanoseconds = DispatchTime.now().uptimeNanoseconds - context.startNanoseconds
            if configuration.accessLog {
                ServerLog.write(
                    AccessLog.line(
                        method: method, rawTarget: context.rawTarget, status: response.status.code, bytes: bodySize,
                        microseconds: nanoseconds / 1000, requestID: context.requestID))
            }
            configuration.requestObserver?(
                CompletedRequest(
                    method: method, rawTarget: context.rawTarget, route: response.routePattern,
                    status: response.status.code, bytes: bodySize, nanoseconds: nanoseconds,
                    requestID: context.requestID))
        }
    }

    /// Sends `stream` on the connection's socket from here on (see ``AdoptedStreams``): claims the stream, takes a
    /// duplicate of the socket and hands it over with the response head. `false` when the socket is not available,
    /// and MHD sends the stream instead.
    private func adopt(
        _ stream: EventStream, response: Response, context: RequestContext, on connection: OpaquePointer
    ) throws -> Bool {
        let socket = screenplay_mhd_connection_socket(connection)
        guard socket >= 0 else { return false }
        guard stream.attach(bufferLimit: configuration.maxStreamBuffer) else { throw StreamAlreadySent() }
        // The stream is this request's from here: whatever fails ends it, as a client leaving would.
        let head: [UInt8]
        do {
            head = try Daemon.streamHead(response, isHTTP10: context.isHTTP10)
        } catch {
            stream.transportDidFinish()
            throw error
        }
        let duplicate = fcntl(socket, F_DUPFD_CLOEXEC, 0)
        guard duplicate >= 0 else {
            stream.transportDidFinish()
            throw ServerError("cannot take over the event stream's socket: \(String(cString: strerror(errno)))")
        }
        // Ended and closed already when this fails; MHD's answer (none, `MHD_NO`) then closes the connection.
        _ = adoptedStreams.adopt(socket: duplicate, stream: stream, isChunked: !context.isHTTP10, head: head)
        return true
    }

    /// Whether `name` says how the body is framed, which the server writes itself from the body.
    static func isBodyFraming(_ name: String) -> Bool {
        HTTPHeaders.namesMatch(name, "Content-Length") || HTTPHeaders.namesMatch(name, "Transfer-Encoding")
    }

    /// The status line and headers of an event stream, as MHD writes them: chunked for HTTP/1.1, ended by closing
    /// the connection for HTTP/1.0.
    static func streamHead(_ response: Response, isHTTP10: Bool) throws -> [UInt8] {
        var head = "HTTP/1.1 \(response.status.code) \(response.status.reasonPhrase)\r\n"
        head += "Date: \(HTTPDate.format(secondsSince1970: time(nil)))\r\n"
        if isHTTP10 { head += "Connection: close\r\n" }
        for (name, value) in response.headers where !isBodyFraming(name) {
            // What MHD_add_response_header refuses: a line break would end the header early.
            guard !name.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 58 }),
                !value.utf8.contains(where: { $0 == 13 || $0 == 10 })
            else { throw ServerError("adding header \(name): line breaks are not allowed") }
            head += "\(name): \(value)\r\n"
        }
        if !isHTTP10 { head += "Transfer-Encoding: chunked\r\n" }
        head += "\r\n"
        return Array(head.utf8)
    }

    /// An MHD response for `response`, and its body size when known.
    private func makeResponse(_ response: Response, on connection: OpaquePointer) throws -> (OpaquePointer, Int?) {
        let mhdResponse: OpaquePointer
        let size: Int?
        switch response.body {
        case .bytes(let bytes) where bytes.count >= HeldBytes.minimumSize:
            mhdResponse = try HeldBytes.makeResponse(for: bytes)
            size = bytes.count
        case .bytes(let bytes):
            mhdResponse = try bytes.withUnsafeBytes { buffer in
                try check(
                    MHD_create_response_from_buffer(
                        buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY),
                    "MHD_create_response_from_buffer")
            }
            size = bytes.count
        case .file(let path):
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            var info = stat()
            guard descriptor >= 0, fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                if descriptor >= 0 { close(descriptor) }
                return try makeResponse(.error(.notFound, message: "Nothing here."), on: connection)
            }
            let fileSize = Int(info.st_size)
            if fileSize <= Daemon.smallFileSize {
                mhdResponse = try Daemon.makeResponse(reading: descriptor, size: fileSize)
            } else {
                // MHD owns the descriptor from here and closes it with the response.
                mhdResponse = try check(
                    MHD_create_response_from_fd64(UInt64(fileSize), descriptor), "MHD_create_response_from_fd64")
            }
            size = fileSize
        case .stream(let stream):
            mhdResponse = try StreamConnection.makeResponse(for: stream, on: connection, daemon: self)
            size = nil
        case .fileRange(let range):
            let (path, offset, length) = (range.path, range.offset, range.length)
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            var info = stat()
            guard descriptor >= 0, fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
                offset >= 0, length >= 0, offset + length <= Int(info.st_size)
            else {
                if descriptor >= 0 { close(descriptor) }
                return try makeResponse(.error(.notFound, message: "Nothing here."), on: connection)
            }
            // MHD owns the descriptor from here and closes it with the response.
            mhdResponse = try check(
                MHD_create_response_from_fd_at_offset64(UInt64(length), descriptor, UInt64(offset)),
                "MHD_create_response_from_fd_at_offset64")
            size = length
        case .produced(let producer):
            mhdResponse = try ProducedBody.makeResponse(for: producer)
            size = nil
        }
        for (name, value) in response.headers where !Daemon.isBodyFraming(name) {
            do {
                // `withCString` reads a short name in place; passing the strings as pointers copied each one that
                // fits in the string itself into an array (`utf8CString`), four a page.
                let added = name.withCString { name in
                    value.withCString { value in MHD_add_response_header(mhdResponse, name, value) }
                }
                try check(added, "adding header \(name)")
            } catch {
                MHD_destroy_response(mhdResponse)
                throw error
            }
        }
        return (mhdResponse, size)
    }

    /// Files up to this size are read into memory: headers and body then leave in one write,
    /// where `sendfile` would cost a second system call and packet (Benchmarks/History/01-http-server.md).
    static let smallFileSize = 64 * 1024

    /// A response holding the whole file; closes `descriptor`.
    private static func makeResponse(reading descriptor: Int32, size: Int) throws -> OpaquePointer {
        defer { close(descriptor) }
        guard size > 0, let buffer = malloc(size) else {
            return try check(MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT), "empty response")
        }
        var offset = 0
        while offset < size {
            let count = pread(descriptor, buffer + offset, size - offset, off_t(offset))
            if count <= 0 {
                free(buffer)
                throw MicroHTTPDError(operation: "reading a file to send")
            }
            offset += count
        }
        // MHD frees the buffer with the response.
        return try check(
            MHD_create_response_from_buffer(size, buffer, .RESPMEM_MUST_FREE), "MHD_create_response_from_buffer")
    }

    // MARK: - Reading the request

    static func header(_ name: String, of connection: OpaquePointer) -> String? {
        MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
    }

    static func headers(of connection: OpaquePointer) -> HTTPHeaders {
        var headers = HTTPHeaders()
        // Counted first (no callback: MHD only counts), so the fields are stored without the array growing.
        headers.reserveCapacity(max(0, Int(MHD_get_connection_values(connection, .HEADER_KIND, nil, nil))))
        withUnsafeMutablePointer(to: &headers) { pointer in
            _ = MHD_get_connection_values(
                connection, .HEADER_KIND,
                { context, _, name, value in
                    let headers = context!.assumingMemoryBound(to: HTTPHeaders.self)
                    if let name {
                        headers.pointee.add(String(cString: name), value.map { String(cString: $0) } ?? "")
                    }
                    return .YES
                }, pointer)
        }
        return headers
    }

}

/// A connection suspended for a deferred response, resumed from the thread that answers it. `@unchecked Sendable`:
/// MHD allows `MHD_resume_connection` from any thread, and a suspended connection is never freed, so the pointer is
/// valid until the one resume.
private struct SuspendedConnection: @unchecked Sendable {
    let pointer: OpaquePointer
}
