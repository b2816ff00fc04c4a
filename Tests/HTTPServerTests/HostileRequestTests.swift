import Foundation
import HTTPServer
import Synchronization
import Testing

/// Request lines and headers built to confuse the parser: each gets a clear 4xx, never reaches a handler it should
/// not, and the server keeps serving. Complements `MalformedRequestTests` and `LimitsTests`.
@Suite struct HostileRequestTests {
    /// Counts the requests that reached the handler.
    private final class Hits: Sendable {
        let count = Atomic<Int>(0)
    }

    private func withCountingServer(_ body: (HTTPServer, Hits) throws -> Void) throws {
        let hits = Hits()
        try withServer(routes: { router in
            router.get("/ok") { _ in
                hits.count.add(1, ordering: .relaxed)
                return .text("ok")
            }
            router.post("/ok") { request in
                hits.count.add(1, ordering: .relaxed)
                return .text("\(request.body.count)")
            }
        }) { server throws in try body(server, hits) }
    }

    @Test(arguments: [
        "/ok\u{0}", "/ok\u{0}/../secret", "/o\u{0}k", "/ok\u{0}?x=1", "/ok?x=\u{0}1",
    ])
    func aNULByteInTheTargetIs400AndReachesNoHandler(target: String) throws {
        try withCountingServer { server, hits throws in
            let connection = try TestConnection(port: server.port)
            try connection.send("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try connection.readResponse().status == 400)
            #expect(hits.count.load(ordering: .relaxed) == 0)
            #expect(try TestConnection.request(port: server.port, "/ok").text == "ok")
        }
    }

    @Test(arguments: [
        "Content-Length: 3\r\nContent-Length: 5", "Content-Length: 5\r\nContent-Length: 3", "Content-Length: 3, 5",
        "Content-Length: -1", "Content-Length: 0x5", "Content-Length: 5 5", "Content-Length: +5",
        "Content-Length: 99999999999999999999999",
    ])
    func conflictingOrInvalidContentLengthsAre4xx(header: String) throws {
        try withCountingServer { server, hits throws in
            let connection = try TestConnection(port: server.port, timeout: 3)
            try connection.send("POST /ok HTTP/1.1\r\nHost: x\r\n\(header)\r\n\r\nhello")
            let status = try connection.readResponse().status
            #expect((400..<500).contains(status), "\(header): \(status)")
            #expect(hits.count.load(ordering: .relaxed) == 0)
            #expect(try TestConnection.request(port: server.port, "/ok").text == "ok")
        }
    }

    @Test func invalidUTF8InThePathNeverMatchesARouteByAccident() throws {
        try withCountingServer { server, hits throws in
            for bytes: [UInt8] in [[0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80]] {
                let target = Array("/ok".utf8) + bytes
                let connection = try TestConnection(port: server.port)
                try connection.send(Array("GET ".utf8) + target + Array(" HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
                let status = try connection.readResponse().status
                #expect((400..<500).contains(status), "\(bytes): \(status)")
            }
            #expect(hits.count.load(ordering: .relaxed) == 0)
        }
    }

    @Test(arguments: [
        "Host: x\r\nHost: y", "Host: x\r\n Folded: header", "Host: x\r\nBad\u{0}Name: v", "Host: x\r\nX: a\u{0}b",
        "Host: x\r\n: empty-name",
    ])
    func hostileHeadersAre400OrIgnoredAndTheServerStillServes(headers: String) throws {
        try withCountingServer { server, _ throws in
            let connection = try TestConnection(port: server.port, timeout: 3)
            try connection.send("GET /ok HTTP/1.1\r\n\(headers)\r\n\r\n")
            let status = (try? connection.readResponse().status) ?? 0
            #expect(status == 200 || status == 400 || status == 0, "\(headers): \(status)")
            #expect(try TestConnection.request(port: server.port, "/ok").text == "ok")
        }
    }
}
