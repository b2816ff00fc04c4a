import HTTPServer
import Testing

@Suite struct HTTPHeadersTests {
    @Test func looksUpNamesWithoutCase() {
        var headers: HTTPHeaders = ["Content-Type": "text/html", "Set-Cookie": "a=1"]
        headers.add("set-cookie", "b=2")
        #expect(headers["content-type"] == "text/html")
        #expect(headers["CONTENT-TYPE"] == "text/html")
        #expect(headers.values(for: "Set-Cookie") == ["a=1", "b=2"])
        #expect(headers["Content-Typ"] == nil)
    }

    @Test func namesMatchByteForByteWithoutASCIICaseAndByLength() {
        // Equal lengths, every letter's case; a prefix or a longer name; bytes outside ASCII fold no case; names past
        // the small strings' fifteen bytes and made at run time.
        let long = "X-" + String(repeating: "Forwarded-", count: 3) + "For"
        let headers: HTTPHeaders = ["Content-Type": "text/html", "É-Tag": "1", long: "2", "": "empty"]
        #expect(headers["cONTENT-tYPE"] == "text/html")
        #expect(headers["Content-Type2"] == nil)
        #expect(headers["Content-Typf"] == nil)
        #expect(headers["é-tag"] == nil)
        #expect(headers["É-TAG"] == "1")
        #expect(headers[long.uppercased()] == "2")
        #expect(headers[String(long.dropLast())] == nil)
        #expect(headers[""] == "empty")
        #expect(headers["@"] == nil)
    }

    @Test func settingReplacesEveryFieldOfThatName() {
        var headers: HTTPHeaders = ["Set-Cookie": "a=1"]
        headers.add("SET-COOKIE", "b=2")
        headers["set-cookie"] = "c=3"
        #expect(headers.values(for: "Set-Cookie") == ["c=3"])
        headers["Set-Cookie"] = nil
        #expect(!headers.contains("set-cookie"))
        #expect(headers.count == 0)
    }
}
