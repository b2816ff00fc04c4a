import Foundation
import MovieApp
import ScreenplayTesting
import Testing

/// The rows path of a windowed table on a real server: what each post answers.
@Suite("Table rows route")
struct TableRowsRouteTests {
    @Test func aRowsPostIsAcceptedAndBadOnesAreRefused() throws {
        let folder = try TemporaryFolder()
        let server = try MovieServer(options: serverOptions(databaseIn: folder))
        try server.start()
        defer { server.stop() }
        let client = LiveClient(port: server.port)
        let page = LivePage(try client.get("/"))
        let sid = try #require(page.sessionID)
        let csrf = try #require(page.csrfToken)
        // The list's table: its DOM id, as the page's script reads it.
        let tableID = try #require(
            page.html.range(of: #"<ul id="([^"]+)" class="movie-grid""#, options: .regularExpression).map {
                String(page.html[$0].dropFirst(#"<ul id=""#.count).prefix { $0 != "\"" })
            })
        let path = "/screens/\(sid)/rows"
        let headers = ["X-Requested-With": "fetch"]
        func post(_ form: [String: String]) throws -> Int { try client.post(path, form: form, headers: headers).status }
        #expect(try post(["csrf": csrf, "table": tableID, "first": "3", "key": "5"]) == 204)
        #expect(try post(["csrf": "wrong", "table": tableID, "first": "3"]) == 403)
        #expect(try post(["csrf": csrf, "table": "v999999", "first": "3"]) == 400)
        #expect(try post(["csrf": csrf, "table": tableID, "first": "-1"]) == 400)
        #expect(try post(["csrf": csrf, "table": tableID, "first": "3", "extra": "x"]) == 400)
        // A screen this instance does not hold, whose token is not its page's: refused, nothing built.
        #expect(
            try client.post("/screens/unknown/rows", form: ["csrf": csrf, "table": tableID, "first": "0"]).status == 403
        )
    }
}
