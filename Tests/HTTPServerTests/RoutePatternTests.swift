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
