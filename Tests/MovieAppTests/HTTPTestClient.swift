import Foundation
import Glibc

/// A response read off the wire.
struct HTTPTestResponse {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]

    /// A header by lower-cased name.
    subscript(header name: String) -> String? { headers[name.lowercased()] }

    /// The body decoded as JSON into `type`.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: Data(body))
    }

    /// The `error` member of a JSON error body.
    var errorMessage: String? {
        (try? decode([String: String].self))?["error"]
    }
}

struct HTTPTestClientError: Error, CustomStringConvertible {
    let description: String
}

/// Sends one HTTP/1.1 request over a fresh TCP connection to 127.0.0.1 with `Connection: close` and
/// reads the whole answer; reads time out after five seconds rather than hang a test.
func send(
    _ method: String, _ target: String, port: Int, headers: [String: String] = [:], body: [UInt8] = []
) throws -> HTTPTestResponse {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw HTTPTestClientError(description: "socket failed: errno \(errno)") }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else { throw HTTPTestClientError(description: "connect to \(port): errno \(errno)") }
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

    var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    if !body.isEmpty || method == "PATCH" { head += "Content-Length: \(body.count)\r\n" }
    let request = Array((head + "\r\n").utf8) + body
    var offset = 0
    while offset < request.count {
        let written = request[offset...].withUnsafeBytes {
            Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        guard written > 0 else { throw HTTPTestClientError(description: "send failed: errno \(errno)") }
        offset += written
    }

    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while true {
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { throw HTTPTestClientError(description: "recv failed or timed out: errno \(errno)") }
        if count == 0 { break }
        received += chunk[..<count]
    }
    return try parse(received)
}

private func parse(_ bytes: [UInt8]) throws -> HTTPTestResponse {
    let separator: [UInt8] = Array("\r\n\r\n".utf8)
    // A server killed mid-request closes without a byte; that is an error, not an index out of range.
    guard bytes.count >= separator.count else { throw HTTPTestClientError(description: "closed without an answer") }
    guard
        let end = (0...max(0, bytes.count - separator.count)).first(where: {
            bytes[$0..<$0 + 4].elementsEqual(separator)
        })
    else { throw HTTPTestClientError(description: "no header end in \(bytes.count) bytes") }
    let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
    let statusParts = lines[0].split(separator: " ")
    guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
        throw HTTPTestClientError(description: "bad status line \(lines[0])")
    }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return HTTPTestResponse(status: status, headers: headers, body: Array(bytes[(end + 4)...]))
}
