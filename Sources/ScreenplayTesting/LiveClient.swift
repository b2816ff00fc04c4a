internal import Foundation
internal import Glibc
internal import Screenplay
internal import Synchronization

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
/// instead of hanging. Like a browser, a client keeps the cookies the server sets (its name and value; `Max-Age=0`
/// removes one) and sends them with every later request, with those of a `Cookie` header a request gives (which win
/// by name); copies of a client share them, and another ``LiveClient`` is another browser.
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

    /// The cookies the server set, shared by copies of this client.
    private let cookies: CookieJar

    /// A client for the server on `127.0.0.1:port`, with no cookies yet (a new browser).
    public init(port: Int, timeout: Int = 10) {
        self.port = port
        self.timeout = timeout
        cookies = CookieJar()
    }

    /// A client for the server on `127.0.0.1:port` that keeps its cookies with `browser`'s: the same browser (for a
    /// test app that knows its port only once it has started).
    public init(port: Int, timeout: Int = 10, sameBrowserAs browser: LiveClient) {
        self.port = port
        self.timeout = timeout
        cookies = browser.cookies
    }

    /// The cookies the server has set on this client, by name.
    public var storedCookies: [String: String] { cookies.all }

    /// Forgets every cookie the server set (the browser's data cleared).
    public func clearCookies() { cookies.clear() }

    /// Sends one request and reads the whole response.
    public func request(
        _ method: String, _ target: String, headers: [String: String] = [:], body: [UInt8] = []
    ) throws -> LiveResponse {
        let connection = try LiveConnection(port: port, timeout: timeout)
        try connection.send(
            Self.head(method, target, headers: cookies.adding(to: headers), bodyCount: body.count) + body)
        let response = try connection.readResponse(hasBody: method != "HEAD")
        cookies.store(response.headers)
        return response
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
        var headers = cookies.adding(to: headers)
        headers["Accept"] = "text/event-stream"
        let connection = try LiveConnection(port: port, timeout: timeout)
        try connection.send(Self.head("GET", target, headers: headers, bodyCount: 0, close: false))
        let head = try connection.readHead()
        guard head.status == 200, head.header("Content-Type")?.hasPrefix("text/event-stream") == true else {
            throw LiveClientError(description: "GET \(target): not an event stream (status \(head.status))")
        }
        return LiveEventStream(connection: connection, timeout: timeout)
    }

    /// The events of `page`'s screen, as a browser gets them: opens a shared stream (``openSharedStream(headers:)``)
    /// and attaches the page's screen to it, naming the last event the page applied (by default the one it was
    /// rendered with). Throws unless the attach is answered `204`.
    ///
    /// ```swift
    /// let page = LivePage(try client.get("/counter"))
    /// let events = try client.openEvents(for: page)
    /// let patch = try events.next { $0.event == "patch" }
    /// ```
    public func openEvents(for page: LivePage, lastEventID: Int? = nil, headers: [String: String] = [:]) throws
        -> LiveEventStream
    {
        let shared = try openSharedStream(headers: headers)
        let answer = try attach(page, to: shared.id, lastEventID: lastEventID, headers: headers)
        guard answer.status == 204 else {
            shared.close()
            throw LiveClientError(description: "attaching the page's screen: status \(answer.status) \(answer.text)")
        }
        return shared.events
    }

    /// Opens a browser's shared event stream (`GET /streams`) and reads its first event, which names it; attach
    /// pages to it with ``attach(_:to:lastEventID:headers:)``.
    ///
    /// ```swift
    /// let shared = try client.openSharedStream()
    /// _ = try client.attach(LivePage(try client.get("/movies/1")), to: shared.id)
    /// let patch = try shared.events.next { $0.event == "patch" }   // patch.screen names the page's screen
    /// ```
    public func openSharedStream(headers: [String: String] = [:]) throws -> LiveSharedStream {
        let events = try openEvents(ScreenWire.streams.pattern, headers: headers)
        guard let greeting = try events.next(), greeting.event == ScreenWire.Event.stream.rawValue,
            let range = greeting.data.range(of: "\"stream\":\"")
        else {
            events.close()
            throw LiveClientError(description: "GET /streams: the first event does not name the stream")
        }
        return LiveSharedStream(id: String(greeting.data[range.upperBound...].prefix { $0 != "\"" }), events: events)
    }

    /// Attaches `page`'s screen to the shared stream `streamID` (`POST /streams/{id}/screens`), naming the last
    /// event the page applied (by default the one it was rendered with).
    public func attach(
        _ page: LivePage, to streamID: String, lastEventID: Int? = nil, headers: [String: String] = [:]
    ) throws -> LiveResponse {
        typealias Field = ScreenWire.Field
        var form = [
            Field.screen.rawValue: page.screenID ?? "", Field.csrf.rawValue: page.csrfToken ?? "",
            Field.url.rawValue: page.screenURL ?? "", Field.version.rawValue: String(ScreenWire.version),
        ]
        form[Field.last.rawValue] = lastEventID.map(String.init) ?? page.lastEventID
        form[Field.render.rawValue] = page.renderDigest
        return try post(ScreenWire.attach.path(streamID), form: form, headers: headers)
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

    /// On a shared stream, the screen the event belongs to: its id up to the last `.`.
    public var screen: String? {
        guard let id, let dot = id.lastIndex(of: ".") else { return nil }
        return String(id[..<dot])
    }

    /// On a shared stream, the event's number among its screen's events: its id after the last `.`; otherwise the
    /// whole id as a number.
    public var number: Int? {
        guard let id else { return nil }
        guard let dot = id.lastIndex(of: ".") else { return Int(id) }
        return Int(id[id.index(after: dot)...])
    }
}

/// A browser's shared event stream opened by ``LiveClient/openSharedStream(headers:)``: its id and its events.
public struct LiveSharedStream {
    /// The stream's id, which attach requests name.
    public let id: String
    /// Its events, the greeting already read.
    public let events: LiveEventStream

    /// Closes the connection.
    public func close() { events.close() }
}

@available(*, unavailable)
extension LiveSharedStream: Sendable {}

/// An open event stream: read its events one by one, comments skipped.
public final class LiveEventStream {
    private let connection: LiveConnection
    private let timeout: Int
    private var text = ""
    /// Every byte read off the stream so far, as text: for snapshots of a stream's bytes.
    public private(set) var received = ""

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
            let chunkText = String(decoding: chunk, as: UTF8.self)
            text += chunkText
            received += chunkText
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

/// The cookies a ``LiveClient`` keeps, as a browser does: name and value, by name.
///
/// Reflected without children: a failed `#expect` reflects the values it names, and reflecting the `Mutex` inside
/// (a noncopyable type) traps.
private final class CookieJar: Sendable, CustomReflectable {
    var customMirror: Mirror { Mirror(self, children: ["cookies": all]) }

    private let cookies = Mutex<[String: String]>([:])

    var all: [String: String] { cookies.withLock { $0 } }

    func clear() { cookies.withLock { $0 = [:] } }

    /// `headers` with a `Cookie` header holding the kept cookies and those `headers` names (which win).
    func adding(to headers: [String: String]) -> [String: String] {
        let kept = all
        guard !kept.isEmpty else { return headers }
        let givenName = headers.keys.first { $0.lowercased() == "cookie" }
        var pairs: [(String, String)] = []
        var given: [String: String] = [:]
        for part in (givenName.flatMap { headers[$0] } ?? "").split(separator: ";") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            guard let name = pair.first else { continue }
            given[String(name)] = pair.count > 1 ? String(pair[1]) : ""
        }
        for (name, value) in kept.sorted(by: { $0.key < $1.key }) where given[name] == nil {
            pairs.append((name, value))
        }
        for (name, value) in given.sorted(by: { $0.key < $1.key }) { pairs.append((name, value)) }
        var result = headers
        if let givenName { result[givenName] = nil }
        result["Cookie"] = pairs.map { "\($0.0)=\($0.1)" }.joined(separator: "; ")
        return result
    }

    /// Keeps the cookies of a response's `Set-Cookie` headers; one with `Max-Age=0` (or a negative one) is removed.
    func store(_ headers: [(name: String, value: String)]) {
        for header in headers where header.name.lowercased() == "set-cookie" {
            let attributes = header.value.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = attributes.first, let equals = first.firstIndex(of: "=") else { continue }
            let name = String(first[..<equals]), value = String(first[first.index(after: equals)...])
            let removed = attributes.dropFirst().contains {
                $0.lowercased().hasPrefix("max-age=") && (Int($0.dropFirst(8)) ?? 1) <= 0
            }
            cookies.withLock { $0[name] = removed ? nil : value }
        }
    }
}
