import Testing

@testable import Screenplay

/// Screen routes match with the router's one matcher: a URL a screen is rebuilt from routes as its GET did.
@Suite struct ScreenRouteTests {
    let route = ScreenRoute(pattern: "/counter/:id", parent: "/", type: CounterViewController.self) { _ in
        CounterViewController()
    }

    @Test func aScreenRouteMatchesWithTheRoutersPattern() {
        #expect(route.pattern.description == "/counter/:id")
        #expect(route.match("/counter/7") == ["id": "7"])
        // Matching runs on the encoded path: an encoded slash stays inside its segment, then is decoded.
        #expect(route.match("/counter/a%2Fb") == ["id": "a/b"])
    }

    @Test func pathsOfAnotherShapeDoNotMatch() {
        #expect(route.match("/counter/") == nil)
        #expect(route.match("/counter") == nil)
        #expect(route.match("/counter/7/more") == nil)
        #expect(route.match("counter/7") == nil)
        #expect(route.match("*") == nil)
    }
}
