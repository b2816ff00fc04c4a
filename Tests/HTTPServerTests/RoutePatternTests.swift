import Testing

@testable import HTTPServer

@Suite struct RoutePatternTests {
    private func match(_ pattern: String, _ path: String) -> [String: String]? {
        RoutePattern(pattern).match(RoutePattern.split(path))
    }

    @Test func literalsMatchExactly() {
        #expect(match("/movies", "/movies") == [:])
        #expect(match("/movies", "/movies/") == nil)
        #expect(match("/", "/") == [:])
        #expect(match("/", "/x") == nil)
    }

    @Test func parametersCaptureOneDecodedSegment() {
        #expect(match("/movies/:id/rating", "/movies/42/rating") == ["id": "42"])
        #expect(match("/movies/:id", "/movies/a%2Fb") == ["id": "a/b"])
        #expect(match("/movies/:id", "/movies/") == nil)
        #expect(match("/movies/:id", "/movies/1/2") == nil)
    }

    @Test func wildcardTakesTheRestPossiblyEmpty() {
        #expect(match("/public/*path", "/public/css/site.css") == ["path": "css/site.css"])
        #expect(match("/public/*path", "/public/") == ["path": ""])
        #expect(match("/public/*path", "/public") == ["path": ""])
        #expect(match("/public/*path", "/other/x") == nil)
    }
}
