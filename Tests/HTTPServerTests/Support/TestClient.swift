import ScreenplayTesting

/// The server tests speak raw bytes over ScreenplayTesting's connection, the one `LiveClient` uses.
typealias TestConnection = LiveConnection
/// A response as read off the wire by ``TestConnection``.
typealias RawResponse = LiveResponse
typealias TestClientError = LiveClientError

extension LiveResponse {
    subscript(header name: String) -> String? { header(name) }
}

extension LiveConnection {
    /// Sends one request with `Connection: close` and reads the response.
    static func request(
        port: Int, _ target: String, method: String = "GET", headers: [String] = [], body: [UInt8] = []
    ) throws -> LiveResponse {
        let connection = try LiveConnection(port: port)
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for header in headers { head += header + "\r\n" }
        if !body.isEmpty { head += "Content-Length: \(body.count)\r\n" }
        try connection.send(Array((head + "\r\n").utf8) + body)
        return try connection.readResponse(hasBody: method != "HEAD")
    }
}
