import Foundation
import HTTPServer
import Synchronization
import Testing

/// Files answered with ranges, validators and a download name, and bodies streamed as they are produced, over real
/// sockets.
@Suite struct DownloadTests {
    private func withFile(_ body: (_ server: HTTPServer, _ path: String) throws -> Void) throws {
        try withTemporaryDirectory { root in
            let path = root + "/catalog.csv"
            try "0123456789".write(toFile: path, atomically: true, encoding: .utf8)
            try withServer(routes: { router in
                router.get("/file") { request in
                    .file(at: path, for: request, contentType: "text/csv", downloadName: "Catalog – 2026.csv")
                }
                router.get("/missing") { request in .file(at: root + "/nothing", for: request, contentType: "text/csv")
                }
            }) { server throws in try body(server, path) }
        }
    }

    @Test func aWholeFileComesWithItsValidatorAndDownloadName() throws {
        try withFile { server, _ in
            let whole = try TestConnection.request(port: server.port, "/file")
            #expect(whole.status == 200)
            #expect(whole.text == "0123456789")
            #expect(whole[header: "Content-Length"] == "10")
            #expect(whole[header: "Accept-Ranges"] == "bytes")
            #expect(whole[header: "Content-Type"] == "text/csv")
            #expect(
                whole[header: "Content-Disposition"]
                    == "attachment; filename=\"Catalog ___ 2026.csv\"; filename*=UTF-8''Catalog%20%E2%80%93%202026.csv")
            let tag = try #require(whole[header: "ETag"])
            let same = try TestConnection.request(port: server.port, "/file", headers: ["If-None-Match: \(tag)"])
            #expect(same.status == 304)
            #expect(same.body.isEmpty)
            #expect(try TestConnection.request(port: server.port, "/missing").status == 404)
        }
    }

    @Test(
        "answers a Range with its bytes, 416 past the end, and the whole file for what it does not serve",
        arguments: [
            ("bytes=2-5", 206, "2345", "bytes 2-5/10"), ("bytes=7-", 206, "789", "bytes 7-9/10"),
            ("bytes=-3", 206, "789", "bytes 7-9/10"), ("bytes=8-100", 206, "89", "bytes 8-9/10"),
            ("bytes=0-0", 206, "0", "bytes 0-0/10"), ("bytes=10-", 416, "", "bytes */10"),
            ("bytes=-0", 416, "", "bytes */10"), ("bytes=1-2,4-5", 200, "0123456789", nil),
            ("bytes=5-2", 200, "0123456789", nil), ("items=1-2", 200, "0123456789", nil),
            ("bytes=x-", 200, "0123456789", nil),
        ] as [(String, Int, String, String?)])
    func ranges(range: String, status: Int, body: String, contentRange: String?) throws {
        try withFile { server, _ in
            let response = try TestConnection.request(port: server.port, "/file", headers: ["Range: \(range)"])
            #expect(response.status == status)
            #expect(response.text == body)
            #expect(response[header: "Content-Range"] == contentRange)
            #expect(response[header: "Content-Length"] == String(body.utf8.count))
        }
    }

    @Test func aProducedBodyIsChunkedAndArrivesWhole() throws {
        let piece = Array(repeating: UInt8(ascii: "x"), count: 1000)
        let produced = Mutex(0)
        try withServer(routes: { router in
            router.get("/produced") { _ in
                produced.withLock { $0 = 0 }
                return Response(
                    headers: ["Content-Type": "text/plain"],
                    body: .produced(
                        BodyProducer {
                            produced.withLock { count in
                                count += 1
                                if count == 3 { return [] }  // an empty piece is skipped
                                return count <= 2_000 ? piece + Array("\(count)\n".utf8) : nil
                            }
                        }))
            }
        }) { server throws in
            let response = try TestConnection.request(port: server.port, "/produced")
            #expect(response.status == 200)
            #expect(response[header: "Transfer-Encoding"] == "chunked")
            #expect(response[header: "Content-Length"] == nil)
            let lines = response.text.split(separator: "\n")
            #expect(lines.count == 1_999)
            #expect(lines.last == Substring(String(repeating: "x", count: 1000) + "2000"))
            #expect(produced.withLock { $0 } == 2_001)
        }
    }

    @Test func aProducerThatFailsEndsTheResponseUnfinished() throws {
        struct Failure: Error {}
        let produced = Mutex(0)
        try withServer(routes: { router in
            router.get("/failing") { _ in
                Response(
                    body: .produced(
                        BodyProducer {
                            try produced.withLock { count in
                                count += 1
                                if count > 3 { throw Failure() }
                                return Array("piece \(count)\n".utf8)
                            }
                        }))
            }
        }) { server throws in
            #expect(throws: (any Error).self) { _ = try TestConnection.request(port: server.port, "/failing") }
            #expect(produced.withLock { $0 } == 4)
        }
    }
}

/// Bodies answered from bytes in memory, below the size sent from the bytes themselves and past it, arrive whole and
/// in order, again and again (each response holds its bytes until the server frees it).
@Suite struct BytesBodyTests {
    @Test(arguments: [0, 1, 4095, 4096, 4097, 65_536, 300_001])
    func aBodyOfBytesArrivesWhole(size: Int) throws {
        let body = (0..<size).map { UInt8($0 % 251) }
        try withServer(routes: { router in
            router.get("/bytes") { _ in
                Response(headers: ["Content-Type": "application/octet-stream"], body: .bytes(body))
            }
        }) { server throws in
            for _ in 0..<3 {
                let response = try TestConnection.request(port: server.port, "/bytes")
                #expect(response.status == 200)
                #expect(response[header: "Content-Length"] == String(size))
                #expect(response.body == body)
            }
        }
    }
}
