internal import Foundation
internal import Glibc

/// One client TCP connection to 127.0.0.1 that speaks raw bytes, so a test can send anything, malformed
/// requests included, and read responses off the wire. Reads time out instead of hanging.
///
/// `LiveClient` and `LiveEventStream` are built on it; the package's own server tests use it directly.
package final class LiveConnection {
    /// The socket, or -1 once closed.
    package private(set) var descriptor: Int32
    private var pending: [UInt8] = []

    /// Connects to `127.0.0.1:port`; reads wait at most `timeout` seconds.
    package init(port: Int, timeout: Int = 5) throws {
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

    /// Closes the connection (both halves).
    package func close() {
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
    }

    /// Sends `text` as UTF-8.
    package func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Sends all of `bytes`.
    package func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { throw LiveClientError(description: "send failed: errno \(errno)") }
            offset += written
        }
    }

    /// Closes the sending half, so the server sees the end of the request bytes.
    package func finishSending() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Reads more bytes into the buffer; false at the end of the stream.
    @discardableResult
    package func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16384)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0 { throw LiveClientError(description: "read timed out or failed: errno \(errno)") }
        if count == 0 { return false }
        pending.append(contentsOf: chunk[..<count])
        return true
    }

    /// Whether the server closed the connection (the end of the stream is read within the timeout).
    package func isClosedByServer() -> Bool {
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

    /// Reads the status line and headers.
    package func readHead() throws -> LiveResponse {
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

    /// Reads one whole response; `hasBody: false` for answers to HEAD.
    package func readResponse(hasBody: Bool = true) throws -> LiveResponse {
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

    /// Reads the rest of a body that ends when the server closes the connection (after `readHead()`).
    package func readUntilClosed() throws -> [UInt8] {
        while try fill() {}
        defer { pending = [] }
        return pending
    }

    /// Reads one chunk of a chunked body; `nil` for the last one.
    package func readChunk() throws -> [UInt8]? {
        let sizeLine = try readLine()
        guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else {
            throw LiveClientError(description: "bad chunk size: \(sizeLine)")
        }
        if size == 0 {
            _ = try? readLine()  // the blank line after the last chunk; a server may close instead
            return nil
        }
        let bytes = try readExactly(size)
        _ = try readLine()
        return bytes
    }
}

@available(*, unavailable)
extension LiveConnection: Sendable {}
