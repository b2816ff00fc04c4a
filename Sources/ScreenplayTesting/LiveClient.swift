internal import Foundation
internal import Glibc

/// A response read off the wire by ``LiveClient``.
public struct LiveResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The headers, in order.
    public var headers: [(name: String, value: String)]
    /// The body bytes (de-chunked).
    public var body: [UInt8]

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The first header named `name`, compared without case.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// An error of the live client: connection refused, timeout, malformed response.
public struct LiveClientError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let description: String

    /// Creates the error.
    public init(description: String) {
        self.description = description
    }
}

/// A small blocking HTTP/1.1 client over real sockets, for tests against a live server on loopback.
///
/// Each request uses its own connection (`Connection: close`), so tests can run many in parallel. Reads time out
/// instead of hanging.
///
/// ```swift
/// let client = LiveClient(port: app.port)
/// let page = try client.get("/movies/1")
/// let screen = try LivePage(page)
/// let response = try client.post(screen.actionPath("refresh")!, form: ["csrf": screen.csrfToken!])
/// ```
public struct LiveClient: Sendable {
    /// The server's port on 127.0.0.1.
    public let port: Int
    /// How long a read may wait, in seconds.
    public var timeout: Int

    /// A client for the server on `127.0.0.1:port`.
    public init(port: Int, timeout: Int = 10) {
        self.port = port
        self.timeout = timeout
    }

    /// Sends one request and reads the whole response.
    public func request(
        _ method: String, _ target: String, headers: [String: String] = [:], body: [UInt8] = []
    ) throws -> LiveResponse {
        let connection = try LiveConnection(port: port, timeout: timeout)
        try connection.send(Self.head(method, target, headers: headers, bodyCount: body.count) + body)
        return try connection.readResponse(hasBody: method != "HEAD")
    }

    /// `GET target`.
    public func get(_ target: String, headers: [String: String] = [:]) throws -> LiveResponse {
        try request("GET", target, headers: headers)
    }

    /// `POST target` with a urlencoded form.
    public func post(_ target: String, form: [String: String], headers: [String: String] = [:]) throws
        -> LiveResponse
    {
        var headers = headers
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let body = form.sorted { $0.key < $1.key }.map { key, value in
            (key.addingPercentEncoding(withAllowedCharacters: allowed) ?? "") + "="
                + (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
        }.joined(separator: "&")
        return try request("POST", target, headers: headers, body: Array(body.utf8))
    }

    /// Opens an event stream; throws unless the server answers 200 `text/event-stream`.
    public func openEvents(_ target: String, headers: [String: String] = [:]) throws -> LiveEventStream {
        var headers = headers
        headers["Accept"] = "text/event-stream"
        let connection = try LiveConnection(port: port, timeout: timeout)
        try connection.send(Self.head("GET", target, headers: headers, bodyCount: 0, close: false))
        let head = try connection.readHead()
        guard head.status == 200, head.header("Content-Type")?.hasPrefix("text/event-stream") == true else {
            throw LiveClientError(description: "GET \(target): not an event stream (status \(head.status))")
        }
        return LiveEventStream(connection: connection, timeout: timeout)
    }

    static func head(_ method: String, _ target: String, headers: [String: String], bodyCount: Int, close: Bool = true)
        -> [UInt8]
    {
        var head = "\(method) \(target) HTTP/1.1\r\n"
        var headers = headers
        if headers["Host"] == nil { headers["Host"] = "127.0.0.1" }
        if close { headers["Connection"] = "close" }
        if bodyCount > 0 || method == "POST" || method == "PATCH" { headers["Content-Length"] = String(bodyCount) }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        return Array((head + "\r\n").utf8)
    }
}

/// One server-sent event.
public struct ServerSentEvent: Sendable, Equatable {
    /// The `event:` name (`message` when absent).
    public var event: String
    /// The `id:`, if any.
    public var id: String?
    /// The `data:` lines joined with newlines.
    public var data: String
}

/// An open event stream: read its events one by one, comments skipped.
public final class LiveEventStream {
    private let connection: LiveConnection
    private let timeout: Int
    private var text = ""

    init(connection: LiveConnection, timeout: Int) {
        self.connection = connection
        self.timeout = timeout
    }

    /// The next event; throws when none arrives within the client's timeout (heartbeats do not count), nil when the
    /// server ended the stream.
    public func next() throws -> ServerSentEvent? {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout) * 1_000_000_000
        while true {
            guard DispatchTime.now().uptimeNanoseconds < deadline else {
                throw LiveClientError(description: "no event within \(timeout) s")
            }
            while let range = text.range(of: "\n\n") {
                let block = String(text[..<range.lowerBound])
                text.removeSubrange(..<range.upperBound)
                if let event = Self.parse(block) { return event }
            }
            guard let chunk = try connection.readChunk() else { return nil }
            text += String(decoding: chunk, as: UTF8.self)
        }
    }

    /// Reads events until one satisfies `predicate` within the client's timeout; returns it (nil if the stream ended
    /// first).
    public func next(where predicate: (ServerSentEvent) -> Bool) throws -> ServerSentEvent? {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout) * 1_000_000_000
        while let event = try next() {
            if predicate(event) { return event }
            guard DispatchTime.now().uptimeNanoseconds < deadline else {
                throw LiveClientError(description: "no matching event within \(timeout) s")
            }
        }
        return nil
    }

    /// Whether the server ends the stream within the read timeout (events before the end are dropped).
    public func endsWithinTimeout() -> Bool {
        do {
            while try connection.readChunk() != nil {}
            return true
        } catch {
            return false
        }
    }

    /// Closes the connection.
    public func close() {
        connection.close()
    }

    static func parse(_ block: String) -> ServerSentEvent? {
        var event = ServerSentEvent(event: "message", id: nil, data: "")
        var dataLines: [Substring] = []
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(":") { continue }
            let (field, value) =
                line.firstIndex(of: ":").map { colon in
                    (line[..<colon], line[line.index(after: colon)...].drop { $0 == " " })
                } ?? (line, "")
            switch field {
            case "event": event.event = String(value)
            case "id": event.id = String(value)
            case "data": dataLines.append(value)
            default: continue
            }
        }
        guard !dataLines.isEmpty else { return nil }
        event.data = dataLines.joined(separator: "\n")
        return event
    }
}

@available(*, unavailable)
extension LiveEventStream: Sendable {}

/// One TCP connection to 127.0.0.1, reading with a timeout.
final class LiveConnection {
    private var descriptor: Int32
    private var pending: [UInt8] = []

    init(port: Int, timeout: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw LiveClientError(description: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            let code = errno
            close()  // and mark it closed: a throwing init still runs deinit, which must not close it again
            throw LiveClientError(description: "connect to port \(port): errno \(code)")
        }
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close()
    }

    func close() {
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
    }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { throw LiveClientError(description: "send failed: errno \(errno)") }
            offset += written
        }
    }

    @discardableResult
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16384)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0 { throw LiveClientError(description: "read timed out or failed: errno \(errno)") }
        if count == 0 { return false }
        pending.append(contentsOf: chunk[..<count])
        return true
    }

    private func readLine() throws -> String {
        while true {
            if let index = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = pending[..<index]
                pending.removeFirst(index + 1)
                return String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
            }
            guard try fill() else { throw LiveClientError(description: "connection closed mid-line") }
        }
    }

    private func readExactly(_ count: Int) throws -> [UInt8] {
        while pending.count < count {
            guard try fill() else { throw LiveClientError(description: "connection closed mid-body") }
        }
        let bytes = Array(pending[..<count])
        pending.removeFirst(count)
        return bytes
    }

    func readHead() throws -> LiveResponse {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else {
            throw LiveClientError(description: "bad status line: \(statusLine)")
        }
        var headers: [(name: String, value: String)] = []
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.append((name: String(line[..<colon]), value: value))
        }
        return LiveResponse(status: status, headers: headers, body: [])
    }

    func readResponse(hasBody: Bool) throws -> LiveResponse {
        var response = try readHead()
        guard hasBody, response.status != 204, response.status != 304 else { return response }
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            while let chunk = try readChunk() { response.body += chunk }
        } else if let length = response.header("Content-Length").flatMap(Int.init) {
            response.body = try readExactly(length)
        } else {
            while try fill() {}
            response.body = pending
            pending = []
        }
        return response
    }

    func readChunk() throws -> [UInt8]? {
        let sizeLine = try readLine()
        guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else {
            throw LiveClientError(description: "bad chunk size: \(sizeLine)")
        }
        if size == 0 {
            _ = try? readLine()
            return nil
        }
        let bytes = try readExactly(size)
        _ = try readLine()
        return bytes
    }
}

@available(*, unavailable)
extension LiveConnection: Sendable {}
