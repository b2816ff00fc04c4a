import Foundation
import Glibc

/// A response as read off the wire by ``TestConnection``.
struct RawResponse {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }

    subscript(header name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

struct TestClientError: Error, CustomStringConvertible {
    let description: String
}

/// One client TCP connection to the server under test, speaking raw bytes so tests can send
/// anything, malformed requests included. Reads time out after a few seconds instead of hanging.
final class TestConnection {
    private(set) var descriptor: Int32
    private var pending: [UInt8] = []

    init(port: Int, timeoutSeconds: Int = 5) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestClientError(description: "socket: \(errno)") }
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
            Glibc.close(descriptor)
            // A throwing initializer still runs deinit: mark the descriptor closed, or deinit would close
            // whatever file another thread has opened under the same number since.
            descriptor = -1
            throw TestClientError(description: "connect to port \(port): errno \(code)")
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        if descriptor >= 0 { Glibc.close(descriptor) }
    }

    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { throw TestClientError(description: "send failed: errno \(errno)") }
            offset += written
        }
    }

    /// Closes the sending half, so the server sees the end of the request bytes.
    func finishSending() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Reads more bytes into the buffer; returns false at end of stream.
    @discardableResult
    func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16384)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0 { throw TestClientError(description: "recv timed out or failed: errno \(errno)") }
        if count == 0 { return false }
        pending.append(contentsOf: chunk[..<count])
        return true
    }

    /// Whether the server closed the connection (reads end of stream within the timeout).
    func isClosedByServer() -> Bool {
        while true {
            do {
                if try !fill() { return true }
            } catch {
                return false
            }
        }
    }

    private func readLine() throws -> String {
        while true {
            if let index = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = pending[..<index]
                pending.removeFirst(index + 1)
                return String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
            }
            guard try fill() else { throw TestClientError(description: "connection closed mid-line") }
        }
    }

    private func readExactly(_ count: Int) throws -> [UInt8] {
        while pending.count < count {
            guard try fill() else { throw TestClientError(description: "connection closed mid-body") }
        }
        let bytes = Array(pending[..<count])
        pending.removeFirst(count)
        return bytes
    }

    /// Reads the status line and headers.
    func readHead() throws -> RawResponse {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else {
            throw TestClientError(description: "bad status line: \(statusLine)")
        }
        var headers: [(name: String, value: String)] = []
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append(
                (
                    name: String(line[..<colon]),
                    value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                ))
        }
        return RawResponse(status: status, headers: headers, body: [])
    }

    /// Reads one whole response; `hasBody: false` for answers to HEAD.
    func readResponse(hasBody: Bool = true) throws -> RawResponse {
        var response = try readHead()
        guard hasBody, response.status != 204, response.status != 304 else { return response }
        if response[header: "Transfer-Encoding"]?.lowercased() == "chunked" {
            while let chunk = try readChunk() { response.body += chunk }
        } else if let length = response[header: "Content-Length"].flatMap(Int.init) {
            response.body = try readExactly(length)
        } else {
            while try fill() {}
            response.body = pending
            pending = []
        }
        return response
    }

    /// Reads the rest of a body that ends when the server closes the connection (after ``readHead()``).
    func readUntilClosed() throws -> [UInt8] {
        while try fill() {}
        defer { pending = [] }
        return pending
    }

    /// Reads one chunk of a chunked body; `nil` for the last one.
    func readChunk() throws -> [UInt8]? {
        let sizeLine = try readLine()
        guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else {
            throw TestClientError(description: "bad chunk size: \(sizeLine)")
        }
        if size == 0 {
            _ = try readLine()
            return nil
        }
        let bytes = try readExactly(size)
        _ = try readLine()
        return bytes
    }
}

extension TestConnection {
    /// Sends one request with `Connection: close` and reads the response.
    static func request(
        port: Int, _ target: String, method: String = "GET", headers: [String] = [], body: [UInt8] = []
    ) throws -> RawResponse {
        let connection = try TestConnection(port: port)
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for header in headers { head += header + "\r\n" }
        if !body.isEmpty { head += "Content-Length: \(body.count)\r\n" }
        try connection.send(Array((head + "\r\n").utf8) + body)
        return try connection.readResponse(hasBody: method != "HEAD")
    }
}
