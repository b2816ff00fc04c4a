import Testing

@testable import HTTPServer

@Suite struct AccessLogTests {
    @Test func lineHoldsMethodPathStatusBytesAndMicroseconds() {
        #expect(
            AccessLog.line(
                method: "GET", rawTarget: "/movies/1?token=secret", status: 200, bytes: 5120, microseconds: 87)
                == "GET /movies/1 200 5120 87µs\n")
        #expect(
            AccessLog.line(method: "GET", rawTarget: "/events", status: 200, bytes: nil, microseconds: 5)
                == "GET /events 200 - 5µs\n")
    }

    @Test func httpDatesAreIMFFixdates() {
        #expect(HTTPDate.format(secondsSince1970: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(secondsSince1970: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
    }
}
