import Foundation
import HTTPServer
import Testing

@Suite struct MalformedRequestTests {
    @Test func malformedRequestsGet400() throws {
        try withServer(routes: { $0.get("/ok") { _ in .text("ok") } }) { server throws in
            for request in [
                "GET /ok HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n",
                "GET /ok HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n",
                "GET /ok HTTP/1.1\r\n\r\n",  // HTTP/1.1 without Host
            ] {
                let connection = try TestConnection(port: server.port)
                try connection.send(request)
                #expect(try connection.readResponse().status == 400, "\(request)")
            }
        }
    }

    @Test func serverSurvivesHundredsOfGarbageRequests() throws {
        try withServer(routes: { $0.get("/ok") { _ in .text("ok") } }) { server throws in
            var generator = SystemRandomNumberGenerator()
            let fragments = [
                "GET", "POST", " ", "/", "HTTP/1.1", "HTTP/9.9", "\r\n", "\n", ":",
                "Content-Length: 99999999999999999999",
                "Transfer-Encoding: chunked", "%00", "\u{0}", "\u{7f}", "Host: x", "zz\r\n\r\n", "\r\n\r\n",
            ]
            for round in 0..<300 {
                var bytes: [UInt8]
                if round % 2 == 0 {
                    bytes = (0..<Int.random(in: 1...600, using: &generator)).map { _ in
                        UInt8.random(in: 0...255, using: &generator)
                    }
                } else {
                    bytes = Array(
                        (0..<Int.random(in: 1...20, using: &generator)).map { _ in fragments.randomElement()! }
                            .joined().utf8)
                }
                let connection = try TestConnection(port: server.port, timeout: 1)
                try? connection.send(bytes)
                connection.finishSending()
                _ = try? connection.readResponse()
            }
            #expect(try TestConnection.request(port: server.port, "/ok").text == "ok")
        }
    }
}
