import Foundation
import HTTPServer
import TestSupport
import Testing

@Suite struct LimitsTests {
    private func routes(_ router: Router) {
        router.post("/upload") { request in .text("got \(request.body.count)") }
        router.get("/ok") { _ in .text("ok") }
    }

    private let small = ServerConfiguration(port: 0, threadCount: 2, maxBodySize: 1024)

    @Test func bodyAtTheLimitIsAccepted() throws {
        try withServer(configuration: small, routes: routes) { server throws in
            let response = try TestConnection.request(
                port: server.port, "/upload", method: "POST", body: [UInt8](repeating: 65, count: 1024))
            #expect(response.text == "got 1024")
        }
    }

    @Test func declaredBodyOverTheLimitIs413() throws {
        try withServer(configuration: small, routes: routes) { server throws in
            let connection = try TestConnection(port: server.port)
            // Only the headers are sent: the answer must not wait for the body.
            try connection.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1025\r\n\r\n")
            #expect(try connection.readResponse().status == 413)
        }
    }

    @Test func defaultBodyLimitIs64KiB() throws {
        try withServer(routes: routes) { server throws in
            let full = try TestConnection.request(
                port: server.port, "/upload", method: "POST", body: [UInt8](repeating: 66, count: 64 * 1024))
            #expect(full.text == "got 65536")
            let connection = try TestConnection(port: server.port)
            try connection.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: \(64 * 1024 + 1)\r\n\r\n")
            #expect(try connection.readResponse().status == 413)
        }
    }

    @Test func chunkedBodyOverTheLimitIs413() throws {
        try withServer(configuration: small, routes: routes) { server throws in
            let connection = try TestConnection(port: server.port)
            var request = "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            for _ in 0..<3 { request += "200\r\n" + String(repeating: "a", count: 512) + "\r\n" }
            request += "0\r\n\r\n"
            try connection.send(request)
            #expect(try connection.readResponse().status == 413)
        }
    }

    @Test func endlessChunkedBodyLosesTheConnection() throws {
        try withServer(configuration: small, routes: routes) { server throws in
            let connection = try TestConnection(port: server.port)
            try connection.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = Array(("4000\r\n" + String(repeating: "z", count: 0x4000) + "\r\n").utf8)
            var sent = 0
            while sent < 8 << 20 {
                guard (try? connection.send(chunk)) != nil else { break }
                sent += chunk.count
            }
            #expect(sent < 8 << 20)
            #expect(try TestConnection.request(port: server.port, "/ok").text == "ok")
        }
    }

    @Test func chunkedBodyUnderTheLimitIsAccepted() throws {
        try withServer(configuration: small, routes: routes) { server throws in
            let connection = try TestConnection(port: server.port)
            try connection.send(
                "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n3\r\nabc\r\n0\r\n\r\n"
            )
            #expect(try connection.readResponse().text == "got 8")
        }
    }

    @Test func chunkedWithContentLengthIsRejected() throws {
        try withServer(routes: routes) { server throws in
            let connection = try TestConnection(port: server.port)
            try connection.send(
                "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
            )
            #expect(try connection.readResponse().status == 400)
        }
    }

    @Test func headersUpToTheDefaultLimitAreServed() throws {
        // 8 KiB of request line and headers in all, the most the default configuration promises,
        // spread over several header lines as a browser with many cookies would send them.
        let target = "/ok"
        var headers = (0..<40).map { "X-Filler-\($0): " + String(repeating: "f", count: 180) }
        let fixed = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8.count
        let used = fixed + headers.reduce(0) { $0 + $1.utf8.count + 2 }
        headers.append("X-Last: " + String(repeating: "l", count: 8 * 1024 - used - "X-Last: \r\n".utf8.count))
        try withServer(routes: routes) { server throws in
            let response = try TestConnection.request(port: server.port, target, headers: headers)
            #expect(response.status == 200)
            #expect(response.text == "ok")
        }
    }

    @Test func headersOverTheLimitAreRejected() throws {
        let configuration = ServerConfiguration(port: 0, threadCount: 2, maxHeaderSize: 2048)
        try withServer(configuration: configuration, routes: routes) { server throws in
            let big = try TestConnection.request(
                port: server.port, "/ok", headers: ["X-Big: " + String(repeating: "b", count: 8192)])
            #expect([413, 414, 431].contains(big.status))
            #expect(try TestConnection.request(port: server.port, "/ok").text == "ok")
        }
    }

    @Test func idleConnectionsAreClosedAfterTheTimeout() throws {
        let configuration = ServerConfiguration(port: 0, threadCount: 2, idleTimeout: .seconds(1))
        try withServer(configuration: configuration, routes: routes) { server throws in
            let connection = try TestConnection(port: server.port, timeout: 4)
            try connection.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try connection.readResponse().text == "ok")
            let start = Date()
            #expect(connection.isClosedByServer())
            #expect(Date().timeIntervalSince(start) < 3.5)
        }
    }

    @Test func eventStreamsAreExemptFromTheIdleTimeout() throws {
        let configuration = ServerConfiguration(port: 0, threadCount: 2, idleTimeout: .seconds(1))
        let hub = StreamHub()
        try withServer(configuration: configuration, routes: hub.routes()) { server throws in
            let client = try EventStreamClient(port: server.port)
            #expect(eventually { hub.count == 1 })
            usleep(2_500_000)
            hub.all[0].send(data: "still here")
            #expect(try client.read(events: 1) == ["data: still here"])
        }
    }

    @Test func connectionsOverTheLimitWaitUntilASlotFrees() throws {
        let configuration = ServerConfiguration(port: 0, threadCount: 1, connectionLimit: 2)
        try withServer(configuration: configuration, routes: routes) { server throws in
            var first: TestConnection? = try TestConnection(port: server.port)
            let second = try TestConnection(port: server.port)
            try second.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try second.readResponse().text == "ok")
            // The kernel completes the handshake, but the server does not take the connection.
            let third = try TestConnection(port: server.port, timeout: 1)
            try third.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(throws: TestClientError.self) { try third.readResponse() }
            first = nil
            #expect(first == nil)
            #expect(try third.readResponse().text == "ok")
        }
    }
}
