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
