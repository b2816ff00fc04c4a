import Foundation
import HTTPServer
import ScreenplayTesting
import Testing

/// A router's mistakes refuse the server's start, naming the route, instead of stopping the process.
@Suite struct RouterMistakesTests {
    private func server(_ router: Router) -> HTTPServer {
        var configuration = ServerConfiguration()
        configuration.port = 0
        return HTTPServer(configuration: configuration, router: router)
    }

    @Test(arguments: [
        ("movies/:id", "the route pattern “movies/:id” must start with /"),
        ("/files/*path/more", "in the route pattern “/files/*path/more”, *name must be the last segment"),
    ])
    func aMalformedPatternRefusesTheStartNamingIt(_ pattern: String, _ message: String) throws {
        let router = Router()
        router.get("/fine") { _ in .text("fine") }
        router.get(pattern) { _ in .text("never") }
        let server = server(router)
        let error = try #require(throws: ServerError.self) { try server.start() }
        #expect(error.message == message)
        #expect(router.respond(to: Request(method: .get, target: "/fine")).status == .internalServerError)
    }

    @Test func startingTwiceIsAnErrorAndARouteAddedAfterTheStartIsNotServed() throws {
        let router = Router()
        router.get("/fine") { _ in .text("fine") }
        let server = server(router)
        try server.start()
        defer { server.stop() }
        #expect(throws: ServerError.self) { try server.start() }
        router.get("/late") { _ in .text("late") }
        let client = LiveClient(port: server.port)
        #expect(try client.get("/late").status == 404)
        #expect(try client.get("/fine").text == "fine")
    }
}
