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

    /// A path is cut into the segments the split by characters after the first makes: byte by byte for ASCII paths,
    /// by characters for others (a slash that a combining mark follows is no separator), the empty path one segment.
    @Test func pathsSplitIntoTheSegmentsOfTheSplitByCharacters() {
        let paths = [
            "", "/", "//", "///", "/movies", "/movies/", "/movies/1", "/movies/1/edit", "/a%2Fb/list", "x", "x/y",
            "/public/a/b.css", "/\r\n/a", "/caf\u{E9}/1", "/a/\u{301}b", "/\u{301}/a", "\u{E9}/a", "/a/b\u{301}/c/",
            "/" + String(repeating: "segment/", count: 40),
        ]
        for path in paths {
            let expected = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
            let segments = RoutePattern.split(path)
            #expect(segments == expected, "\(path.debugDescription)")
            #expect(segments.map { String($0) } == expected.map { String($0) }, "\(path.debugDescription)")
        }
        #expect(RoutePattern.split("/movies/1") == ["movies", "1"])
        #expect(RoutePattern.split("/a/\u{301}b") == ["a/\u{301}b"])
    }

    /// A pattern's shape turns away only paths its pattern does not match: the route table tries the pattern only of
    /// the routes whose shape admits the path.
    @Test func theShapeAdmitsEveryPathThePatternMatches() {
        let patterns = [
            "/", "/movies", "/movies/:id", "/movies/:id/edit", "/:section/list", "/public/*path", "/*rest", "/a/b/c",
            "/movies/", "",
        ]
        let paths = [
            "/", "/movies", "/movies/", "/movies/1", "/movies/1/edit", "/movies/1/edit/", "/x/list", "/public",
            "/public/", "/public/a/b.css", "/a/b/c", "/a/b/d", "/moviesx/1", "//", "/a%2Fb/list",
        ]
        var admittedWithoutMatch = 0
        for pattern in patterns.map(RoutePattern.init) {
            for path in paths {
                let segments = RoutePattern.split(path)
                let admits = pattern.shape.admits(segments)
                if pattern.match(segments) != nil {
                    #expect(admits, "\(pattern) matches \(path) but its shape turns it away")
                } else if admits {
                    admittedWithoutMatch += 1
                }
            }
        }
        // The shape is a filter, not the match: a parameter's path of the right length gets past it.
        #expect(RoutePattern("/movies/:id").shape.admits(RoutePattern.split("/movies/")))
        #expect(!RoutePattern("/movies/:id").shape.admits(RoutePattern.split("/posters/1")))
        #expect(!RoutePattern("/movies/:id").shape.admits(RoutePattern.split("/movies/1/edit")))
        #expect(admittedWithoutMatch > 0)
    }
}
